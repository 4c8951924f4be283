/** The registry's rules for glTF, shared by the build (Node) and the viewer (browser): no external files, no validator errors. */
import { gltfInventory, gltfJsonCounts, gltfNotes, type GltfInventory, type GltfMessage, type GltfNotes, type GltfReportInfo } from './gltf-inventory.ts';

/** One resource (buffer or image) listed in a gltf-validator report. */
export interface GltfResource {
  pointer: string;
  storage?: string;
  uri?: string;
  mimeType?: string;
}

/** The parts of a gltf-validator report that the rules read. */
export interface GltfReport {
  issues: { numErrors: number; numWarnings?: number; numInfos?: number; numHints?: number; messages: GltfMessage[]; truncated?: boolean };
  info?: { resources?: GltfResource[] } & GltfReportInfo;
}

/** One thing wrong with a glTF asset: a JSON pointer into the asset when there is one, and what. */
export interface GltfFinding {
  pointer?: string;
  message: string;
}

/** How many validator errors are reported before the rest are counted. */
export const MAX_GLTF_ERRORS = 5;

/** The severity gltf-validator gives to errors. */
export const GLTF_ERROR = 0;

/** True when a glTF `uri` keeps the asset self-contained: only `data:` URIs are allowed. */
export function isAllowedGltfUri(uri: string): boolean {
  return /^data:/i.test(uri.trim());
}

/** The reason given to gltf-validator when it asks for an external file. */
export function externalResourceRefusal(uri: string): string {
  return `external resource "${uri}" refused: only data: URIs or GLB-embedded buffers are allowed`;
}

/** An `externalResourceFunction` for gltf-validator that refuses every external file. */
export function refuseExternalResource(uri: string): Promise<Uint8Array> {
  return Promise.reject(new Error(externalResourceRefusal(uri)));
}

/** The resources of a report whose `uri` points outside the asset. */
export function externalResources(report: GltfReport): Array<{ pointer: string; uri: string }> {
  return (report.info?.resources ?? [])
    .filter((r): r is GltfResource & { uri: string } => typeof r.uri === 'string' && !isAllowedGltfUri(r.uri))
    .map((r) => ({ pointer: `${r.pointer}/uri`, uri: r.uri }));
}

/**
 * What makes an asset unacceptable: every external URI, then the first `max` validator errors
 * (each `<CODE>: <message>`), then how many more errors there were. Empty when the asset passes.
 */
export function gltfFindings(report: GltfReport, max = MAX_GLTF_ERRORS): GltfFinding[] {
  const external = externalResources(report);
  const findings: GltfFinding[] = external.map((r) => ({
    pointer: r.pointer,
    message: `references the external file "${r.uri}"; only data: URIs or GLB-embedded buffers are allowed`,
  }));
  const refused = new Set(external.map((r) => r.pointer));
  const allErrors = report.issues.messages.filter((m) => m.severity === GLTF_ERROR);
  // The I/O errors of refused external files say the same thing again.
  const errors = allErrors.filter((m) => !(m.code === 'IO_ERROR' && m.pointer !== undefined && refused.has(m.pointer)));
  for (const m of errors.slice(0, max)) {
    const where = m.pointer === undefined && m.offset !== undefined ? ` (at byte ${m.offset})` : '';
    findings.push({ ...(m.pointer !== undefined ? { pointer: m.pointer } : {}), message: `gltf-validator ${m.code}: ${m.message}${where}` });
  }
  const total = Math.max(report.issues.numErrors - (allErrors.length - errors.length), errors.length);
  const more = total - Math.min(errors.length, max);
  if (more > 0) findings.push({ message: `gltf-validator reported ${more} more error${more === 1 ? '' : 's'}` });
  return findings;
}

/** One line naming the findings, `<pointer>: <message>` joined with `; `, for a viewer's failed state. */
export function formatGltfFindings(findings: readonly GltfFinding[]): string {
  return findings.map((f) => (f.pointer ? `${f.pointer}: ${f.message}` : f.message)).join('; ');
}

/** Everything the registry keeps from validating one glTF file: what is wrong with it, what it holds, and the validator's notes. */
export interface GltfCheck {
  /** Empty when the asset passes. */
  findings: GltfFinding[];
  /** Absent when the validator could not read the file. */
  inventory?: GltfInventory;
  notes?: GltfNotes;
}

/** The check of one asset from the validator's report and the asset's JSON (for the counts the report lacks). */
export function gltfCheck(report: GltfReport, json: unknown, max = MAX_GLTF_ERRORS): GltfCheck {
  return { findings: gltfFindings(report, max), inventory: gltfInventory(report.info, gltfJsonCounts(json)), notes: gltfNotes(report.issues) };
}

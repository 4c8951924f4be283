import { BROWSER_GLTF_EXTENSIONS, extensionMismatch, unsupportedExtensions } from './gltf-extensions.ts';
import type { Representation } from './types.ts';

/** A runtime that can present some representations, and what it accepts. */
export interface Runtime {
  id: string;
  types: readonly string[];
  formats: readonly string[];
  mediaTypes: readonly string[];
  /** The glTF extensions it supports, for a runtime that loads glTF: an asset requiring any other is a mismatch. */
  extensions?: readonly string[];
}

/** The installed runtimes, in report order. */
export const RUNTIMES: readonly Runtime[] = [
  {
    id: 'browser-gltf',
    types: ['mesh'],
    formats: ['gltf', 'glb'],
    mediaTypes: ['model/gltf+json', 'model/gltf-binary'],
    extensions: BROWSER_GLTF_EXTENSIONS,
  },
  {
    id: 'browser-image',
    types: ['image'],
    formats: ['png', 'jpg', 'jpeg', 'webp', 'avif'],
    mediaTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/avif'],
  },
];

/** The text of a report for a runtime that accepts the representation. */
export const ALL_MATCH = 'all declared capabilities match';

/**
 * What a runtime is checked against: the declared type, format and media type, and for glTF the extensions the asset
 * requires (`extensionsRequired`, read from the file by the registry check; absent for other files).
 */
export type Capabilities = Pick<Representation, 'type' | 'format' | 'mediaType'> & {
  gltf?: { extensionsRequired: readonly string[] } | null | undefined;
};

/** The mismatches of one representation against one runtime (empty when it can load it): type, format, media type, then each unsupported required extension. */
export function mismatches(rep: Capabilities, runtime: Runtime): string[] {
  const out: string[] = [];
  if (!runtime.types.includes(rep.type)) {
    out.push(`type "${rep.type}" is not supported; expected ${runtime.types.join(', ')}`);
  }
  if (!runtime.formats.includes(rep.format)) {
    out.push(`format "${rep.format}" is not supported; expected ${runtime.formats.join(', ')}`);
  }
  if (!runtime.mediaTypes.includes(rep.mediaType)) {
    out.push(`media type "${rep.mediaType}" is not supported; expected ${runtime.mediaTypes.join(', ')}`);
  }
  if (runtime.extensions && rep.gltf) {
    for (const name of unsupportedExtensions(rep.gltf.extensionsRequired, runtime.extensions)) out.push(extensionMismatch(name, runtime.extensions));
  }
  return out;
}

/** One runtime's verdict on one representation. */
export interface RuntimeReport {
  runtime: string;
  compatible: boolean;
  report: string;
}

/** The report of every runtime for one representation. */
export function runtimeReports(rep: Capabilities): RuntimeReport[] {
  return RUNTIMES.map((runtime) => {
    const found = mismatches(rep, runtime);
    return { runtime: runtime.id, compatible: found.length === 0, report: found.length ? found.join('; ') : ALL_MATCH };
  });
}

/** The runtimes that can load the representation, by id. */
export function compatibleRuntimes(rep: Capabilities): string[] {
  return runtimeReports(rep)
    .filter((r) => r.compatible)
    .map((r) => r.runtime);
}

/**
 * The full report line: `<runtime>: <report>` per runtime, joined with ` | `;
 * with `named`, each runtime is written `<representation id>/<runtime>`.
 */
export function compatibilityReport(rep: Capabilities & { id?: string }, named = false): string {
  return reportLine(runtimeReports(rep), named ? rep.id : undefined);
}

/** The report line of {@link compatibilityReport} from reports already made, each runtime prefixed `<id>/` when `id` is given. */
export function reportLine(reports: readonly RuntimeReport[], id?: string): string {
  return reports.map((r) => `${id ? `${id}/` : ''}${r.runtime}: ${r.report}`).join(' | ');
}

/** The first representation a runtime can load, in runtime order then manifest order. */
export function pickPresentable<T extends Capabilities>(reps: readonly T[]): { rep: T; runtime: string } | undefined {
  for (const runtime of RUNTIMES) {
    const rep = reps.find((r) => mismatches(r, runtime).length === 0);
    if (rep) return { rep, runtime: runtime.id };
  }
  return undefined;
}

/** `No compatible representation: ` followed by the named reports of every representation. */
export function noCompatibleText(reps: ReadonlyArray<Capabilities & { id: string }>): string {
  return `No compatible representation: ${reps.map((r) => compatibilityReport(r, true)).join(' | ')}`;
}

/** gltf-validator over a sample mesh in memory, judged by the registry's own glTF rule (packages/core/src/format/gltf-rules.ts). */
import type { GltfMessage } from '@aso-registry/core/format/gltf-inventory';
import { formatGltfFindings, gltfFindings, refuseExternalResource, type GltfFinding } from '@aso-registry/core/format/gltf-rules';

/** The counts of a validation report and what the registry rule finds wrong (nothing, for a good asset). */
export interface GltfCheck {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  findings: GltfFinding[];
}

/** The issue counts gltf-validator reports beside the messages the shared type declares. */
interface IssueCounts {
  numErrors: number;
  numWarnings: number;
  numInfos: number;
  numHints: number;
  messages: GltfMessage[];
}

/** Validates a `.gltf` or `.glb` held in memory; `uri` names it in messages. External files are refused. */
export async function checkGltf(bytes: Uint8Array, uri: string, format: 'gltf' | 'glb'): Promise<GltfCheck> {
  const mod = await import('gltf-validator');
  // A CommonJS module: its exports are named under Node and sit on `default` under some bundlers.
  const validator = (mod as unknown as { default?: typeof mod }).default ?? mod;
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    uri,
    format,
    externalResourceFunction: refuseExternalResource,
    writeTimestamp: false,
    maxIssues: 100,
  });
  const issues = report.issues as unknown as IssueCounts;
  return {
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    findings: gltfFindings(report),
  };
}

/** Throws, naming the file and each finding, unless the asset passes the registry's glTF rule. */
export function assertValidGltf(check: GltfCheck, uri: string): void {
  if (check.findings.length === 0) return;
  throw new Error(`${uri}: not an acceptable glTF asset: ${formatGltfFindings(check.findings)}`);
}

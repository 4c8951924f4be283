/**
 * The SDK's weight in a browser app: every export of `@aso-registry/sdk` bundled and minified by esbuild for browsers,
 * from the package's sources (the same modules its dist/index.js bundles), with what each package adds.
 */
import { join, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The goal: the minified bundle of the whole API, in bytes. */
export const SDK_BUNDLE_GOAL_BYTES = 80_000;

/** What the SDK adds to a browser bundle. */
export interface SdkBundleSize {
  bytes: number;
  gzipBytes: number;
  /** Minified bytes by where they come from (`sdk`, `core`, or a package's name), largest first. */
  parts: Array<{ from: string; bytes: number }>;
}

/** Where a bundled module comes from: the package under node_modules, else the workspace package. */
function origin(input: string): string {
  const path = input.split(sep).join('/');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (pkg) return pkg[1]!;
  return /packages\/([^/]+)\//.exec(path)?.[1] ?? path;
}

/** Bundles the SDK of the project at `root` as a browser app would, and weighs it. */
export async function measureSdkBundle(root: string): Promise<SdkBundleSize> {
  const result = await build({
    stdin: { contents: "export * from '@aso-registry/sdk';", resolveDir: root, loader: 'js' },
    alias: { '@aso-registry/sdk': join(root, 'packages', 'sdk', 'src', 'index.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents;
  const sums = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) sums.set(origin(input), (sums.get(origin(input)) ?? 0) + bytesInOutput);
  }
  const parts = [...sums].map(([from, n]) => ({ from, bytes: n })).filter((p) => p.bytes > 0).sort((a, b) => b.bytes - a.bytes);
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length, parts };
}

const kb = (bytes: number): string => `${(bytes / 1e3).toFixed(1)} KB`;

/** `SDK browser bundle: 120.2 KB minified (38.5 KB gzip); semver 20.5 KB, ...`. */
export function formatSdkBundle(s: SdkBundleSize): string {
  return `SDK browser bundle (every export, minified): ${kb(s.bytes)} (${kb(s.gzipBytes)} gzip); ${s.parts.map((p) => `${p.from} ${kb(p.bytes)}`).join(', ')}`;
}

/** The bench's goal for the bundle, against this measure. */
export function sdkBundleTarget(s: SdkBundleSize): { target: string; actual: string; ok: boolean } {
  return { target: `SDK browser bundle <= ${SDK_BUNDLE_GOAL_BYTES / 1e3} KB minified`, actual: `${kb(s.bytes)} (${kb(s.gzipBytes)} gzip)`, ok: s.bytes <= SDK_BUNDLE_GOAL_BYTES };
}

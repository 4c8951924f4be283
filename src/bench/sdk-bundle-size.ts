/**
 * The SDK's weight in a browser app: every export of `@aso-registry/sdk` bundled and minified by esbuild for browsers,
 * from the package's sources (the same modules its dist/ bundles), with what each package adds; and the same with the
 * second entry, `@aso-registry/sdk/verify-site`, too.
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
  /** Minified bytes of every export of both entries, `verifySite` included. */
  withVerifySite?: number;
}

/** Where a bundled module comes from: the package under node_modules, else the workspace package. */
function origin(input: string): string {
  const path = input.split(sep).join('/');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (pkg) return pkg[1]!;
  return /packages\/([^/]+)\//.exec(path)?.[1] ?? path;
}

function bundle(root: string, contents: string) {
  const sdk = join(root, 'packages', 'sdk', 'src');
  return build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    alias: { '@aso-registry/sdk/verify-site': join(sdk, 'verify-site.ts'), '@aso-registry/sdk': join(sdk, 'index.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

/** Bundles the SDK of the project at `root` as a browser app would, and weighs it. */
export async function measureSdkBundle(root: string): Promise<SdkBundleSize> {
  const result = await bundle(root, "export * from '@aso-registry/sdk';");
  const bytes = result.outputFiles[0]!.contents;
  const sums = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) sums.set(origin(input), (sums.get(origin(input)) ?? 0) + bytesInOutput);
  }
  const parts = [...sums].map(([from, n]) => ({ from, bytes: n })).filter((p) => p.bytes > 0).sort((a, b) => b.bytes - a.bytes);
  const both = await bundle(root, "export * from '@aso-registry/sdk'; export * from '@aso-registry/sdk/verify-site';");
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length, parts, withVerifySite: both.outputFiles[0]!.contents.length };
}

const kb = (bytes: number): string => `${(bytes / 1e3).toFixed(1)} KB`;

/** `SDK browser bundle (every export, minified): 73.3 KB (26.9 KB gzip); core 38.0 KB, ...; with verify-site 80.3 KB`. */
export function formatSdkBundle(s: SdkBundleSize): string {
  const site = s.withVerifySite === undefined ? '' : `; with verify-site ${kb(s.withVerifySite)}`;
  return `SDK browser bundle (every export, minified): ${kb(s.bytes)} (${kb(s.gzipBytes)} gzip); ${s.parts.map((p) => `${p.from} ${kb(p.bytes)}`).join(', ')}${site}`;
}

/** The bench's goal for the bundle, against this measure. */
export function sdkBundleTarget(s: SdkBundleSize): { target: string; actual: string; ok: boolean } {
  return { target: `SDK browser bundle <= ${SDK_BUNDLE_GOAL_BYTES / 1e3} KB minified`, actual: `${kb(s.bytes)} (${kb(s.gzipBytes)} gzip)`, ok: s.bytes <= SDK_BUNDLE_GOAL_BYTES };
}

/** The bench's SDK bundle figure: the whole API bundled for browsers, minified, and what each package adds to it. */
import { describe, expect, it } from 'vitest';
import { formatSdkBundle, measureSdkBundle, SDK_BUNDLE_GOAL_BYTES, sdkBundleTarget } from '../../src/bench/sdk-bundle-size.ts';
import { repoRoot } from '../support/build-site.ts';

describe('measureSdkBundle', () => {
  it('weighs the SDK bundled for browsers, with no schema compiler in it', async () => {
    const size = await measureSdkBundle(repoRoot);
    expect(size.gzipBytes).toBeGreaterThan(0);
    expect(size.gzipBytes).toBeLessThan(size.bytes);
    const from = new Map(size.parts.map((p) => [p.from, p.bytes]));
    expect(from.get('sdk')).toBeGreaterThan(10_000);
    expect(from.get('core')).toBeGreaterThan(10_000);
    expect([...from.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(size.bytes);
    expect(size.parts.map((p) => p.bytes)).toEqual([...size.parts.map((p) => p.bytes)].sort((a, b) => b - a));
    // No schema compiler nor any part of Ajv, and no semver: the schemas are read by core's own validator.
    for (const pkg of ['ajv', 'ajv-formats', 'fast-uri', 'semver']) expect(from.has(pkg), pkg).toBe(false);
    // Whole-site verification is the package's second entry: an app that reads objects does not carry it.
    expect(size.withVerifySite).toBeGreaterThan(size.bytes);
    expect(formatSdkBundle(size)).toMatch(/^SDK browser bundle \(every export, minified\): \d+\.\d KB \(\d+\.\d KB gzip\); .*\bcore \d+\.\d KB\b.*; with verify-site \d+\.\d KB$/);
  });

  it('meets the goal at 80 KB and not a byte over', () => {
    const at = (bytes: number) => sdkBundleTarget({ bytes, gzipBytes: bytes / 3, parts: [] });
    expect(at(SDK_BUNDLE_GOAL_BYTES)).toEqual({ target: 'SDK browser bundle <= 80 KB minified', actual: '80.0 KB (26.7 KB gzip)', ok: true });
    expect(at(SDK_BUNDLE_GOAL_BYTES + 1).ok).toBe(false);
  });
});

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
    // Of Ajv only its run-time helpers: not its compiler, nor fast-uri, which the compiler brings.
    expect(from.get('ajv') ?? 0).toBeLessThan(2_000);
    expect(from.has('fast-uri')).toBe(false);
    expect(formatSdkBundle(size)).toMatch(/^SDK browser bundle \(every export, minified\): \d+\.\d KB \(\d+\.\d KB gzip\); .*\bcore \d+\.\d KB\b/);
  });

  it('meets the goal at 80 KB and not a byte over', () => {
    const at = (bytes: number) => sdkBundleTarget({ bytes, gzipBytes: bytes / 3, parts: [] });
    expect(at(SDK_BUNDLE_GOAL_BYTES)).toEqual({ target: 'SDK browser bundle <= 80 KB minified', actual: '80.0 KB (26.7 KB gzip)', ok: true });
    expect(at(SDK_BUNDLE_GOAL_BYTES + 1).ok).toBe(false);
  });
});

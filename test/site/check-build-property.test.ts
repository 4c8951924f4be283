/**
 * The rule that keeps check and build one: generated registry trees (valid manifests and mutated ones, odd strings,
 * byte order marks, repeated keys, deep provenance, long versions, control characters) go through `npm run check`'s
 * reader; every version it accepts then goes into one site, which must build, and every page of it must escape what it
 * shows. Fixed seed, bounded counts: the same trees on every run.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { representationUrl, versionDir } from '@aso-registry/core/format/paths';
import type { Manifest } from '@aso-registry/core/format/types';
import { loadRegistry } from '../../src/registry/load-registry.ts';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, sri, tempRegistry } from '../support/fixture-registry.ts';

const SEED = 1414;
const TREES = 40;
/** Marks a string that must never reach a page as markup. */
const PROBE = '<i data-probe>';

const odd = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
      { weight: 2, arbitrary: fc.constantFrom(PROBE, `</script>${PROBE}`, '\n## Injected\n- [x](https://evil.test)\n', '\u0000\u0007\u001b', '\ufeff', '\u2028\u2029', '"\'&<>`', '](javascript:alert(1))', '{{x}}', '${x}') },
    ),
    { minLength: 0, maxLength: 4 },
  )
  .map((parts) => parts.join(''));

const version = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.option(fc.stringMatching(/^[0-9A-Za-z-]{1,8}(\.[0-9A-Za-z-]{1,8}){0,2}$/), { nil: undefined })).map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre}` : ''}`) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 250 }).map((n) => `1.0.0-${'a'.repeat(n)}`) },
);

const deep = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

const tree = fc.record({
  versions: fc.uniqueArray(version, { minLength: 1, maxLength: 3 }),
  name: odd,
  description: odd,
  tags: fc.uniqueArray(odd, { maxLength: 4 }),
  license: fc.option(odd, { nil: undefined }),
  repId: fc.constantFrom('picture', 'a b', 'x#y', 'q?z', 'é-1', 'new\nline', 'dot.dot'),
  provenance: fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(odd, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }) },
    { weight: 1, arbitrary: fc.integer({ min: 55, max: 70 }).map((d) => ({ deep: deep(d) })) },
  ),
  mutation: fc.constantFrom('none', 'none', 'none', 'none', 'bom', 'duplicate-key', 'control-in-key'),
});

type Tree = typeof tree extends fc.Arbitrary<infer T> ? T : never;

let work: string;
afterAll(() => (work ? rm(work, { recursive: true, force: true }) : undefined));

/** Writes one generated object into `root` and returns the folders of its versions. */
async function writeTree(root: string, id: string, t: Tree, png: Uint8Array): Promise<string[]> {
  const folders: string[] = [];
  for (const v of t.versions) {
    const dir = join(root, versionDir(id, v));
    await mkdir(join(dir, 'representations'), { recursive: true });
    await writeFile(join(dir, 'representations', `${t.repId}.png`), png);
    const manifest: Manifest = {
      schema: 'aso/object/v0.1',
      id,
      version: v,
      name: t.name,
      description: t.description,
      tags: t.tags,
      createdAt: '2026-01-01T00:00:00Z',
      ...(t.license !== undefined ? { license: t.license } : {}),
      provenance: t.provenance as Record<string, unknown>,
      representations: [{ id: t.repId, type: 'image', format: 'png', mediaType: 'image/png', url: representationUrl(DEFAULT_REGISTRY_URL, id, v, t.repId, 'png'), byteLength: png.length, hash: sri(png) }],
    };
    let text = `${JSON.stringify(manifest, null, 2)}\n`;
    if (t.mutation === 'duplicate-key') text = text.replace('{', '{\n  "name": "shadow",');
    if (t.mutation === 'control-in-key') text = text.replace('"provenance": {', '"provenance": {\n    "a\\u0000\\n": 1,');
    const bytes = new TextEncoder().encode(text);
    const manifestBytes = t.mutation === 'bom' ? new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]) : bytes;
    await writeFile(join(dir, 'aso.object.json'), manifestBytes);
    const publication = { publicationId: randomUUID(), publishedAt: '2026-01-02T00:00:00Z', publisher: 'property test', recordHash: sri(manifestBytes) };
    await writeFile(join(dir, 'publication.json'), `${JSON.stringify(publication, null, 2)}\n`);
    folders.push(versionDir(id, v));
  }
  return folders;
}

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

it('builds every tree the check accepts, and every page escapes what it shows', async () => {
  const site = await tempRegistry('aso-property-');
  work = site.parent;
  const png = await pngBytes(8, 6);
  let n = 0;
  let refused = 0;
  const accepted: Array<{ id: string; name: string; versions: string[] }> = [];
  await fc.assert(
    fc.asyncProperty(tree, async (t) => {
      const id = `object-${String(n++).padStart(3, '0')}`;
      const one = join(work, 'trees', id, 'registry');
      await mkdir(join(one, 'objects'), { recursive: true });
      const folders = await writeTree(one, id, t, png);
      const { problems } = await loadRegistry(one, { registryUrl: DEFAULT_REGISTRY_URL, validateGltf: false });
      // What the check refuses it names, file and all; what it accepts goes into the site.
      for (const p of problems) expect(p.file).toMatch(/^registry\//);
      if (problems.length) {
        refused++;
        return;
      }
      for (const f of folders) await cp(join(one, f), join(site.root, f), { recursive: true });
      accepted.push({ id, name: t.name, versions: t.versions });
    }),
    { seed: SEED, numRuns: TREES },
  );
  // The generator reaches both sides of the rule.
  expect(accepted.length).toBeGreaterThan(5);
  expect(refused).toBeGreaterThan(5);

  const outDir = join(work, 'dist');
  const result = await buildSite({ outDir, registryDir: site.root, cacheDir: join(work, 'cache') });
  expect(result.code, result.stdout + result.stderr).toBe(0);

  for (const file of await htmlFiles(outDir)) {
    const html = await readFile(file, 'utf8');
    // Inside a quoted attribute value `<` is text; everywhere else a manifest string must be escaped.
    expect(html.replace(/="[^"]*"/g, '=""'), file).not.toContain(PROBE);
    for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) expect(body, file).not.toMatch(/<\/?script|<i data-probe/i);
  }
  for (const a of accepted) {
    for (const v of a.versions) {
      const page = await readFile(join(outDir, versionDir(a.id, v), 'index.html'), 'utf8');
      expect(page).toContain(`${a.id}`);
    }
  }
  const llms = (await readFile(join(outDir, 'llms.txt'), 'utf8')).split('\n');
  expect(llms.filter((l) => l.startsWith('#'))).toEqual(['# ASO registry', '## API', '## Objects']);
  const objectLines = llms.slice(llms.indexOf('## Objects') + 1).filter((l) => l !== '');
  expect(objectLines).toHaveLength(accepted.length);
  for (const line of objectLines) expect(line).toMatch(/^- \[.*\]\(https:\/\/[^)]+\): object-\d{3}@\S+, \d version\(s\); \[agent\.json\]/);
}, 600_000);

/** Every manifest string is escaped in HTML and JSON-LD, whatever it contains. */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

const EVIL = `</script><script>alert("x")</script>'"&`;
let parent: string;
let html: string;

beforeAll(async () => {
  const reg = await tempRegistry('aso-escape-');
  parent = reg.parent;
  await writeVersion(reg.root, {
    id: 'evil-object',
    version: '1.0.0',
    name: `Name ${EVIL}`,
    description: `Description ${EVIL}`,
    tags: [`tag ${EVIL}`, 'plain'],
    license: `License ${EVIL}`,
    files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes() }],
    provenance: {
      source: `Source ${EVIL}`,
      prompt: { source: `Prompt ${EVIL}`, effective: `Sent ${EVIL}` },
      generator: { model: `Model ${EVIL}`, parameters: { [`Key ${EVIL}`]: `Value ${EVIL}`, nested: { evil: EVIL } } },
      outputs: [{ url: 'javascript:alert("x")', role: 'reference-image', mediaType: 'image/png' }],
      pipeline: { runId: `Run ${EVIL}`, manifestUrl: 'javascript:alert("x")' },
      correction: { reason: `Reason ${EVIL}`, sourceObject: { id: `evil-object`, version: `0.9.0 ${EVIL}` } },
    },
  });
  const result = await buildSite({ outDir: join(parent, 'dist'), registryDir: reg.root, cacheDir: join(parent, 'cache') });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  html = await readFile(join(parent, 'dist', 'objects/evil-object/versions/1.0.0/index.html'), 'utf8');
});

afterAll(() => rm(parent, { recursive: true, force: true }));

it('never lets a manifest string open or close an element', () => {
  // Inside a quoted attribute value `<` is plain text; everywhere else it must be escaped.
  const outsideAttributes = html.replace(/="[^"]*"/g, '=""');
  expect(outsideAttributes).not.toContain('<script>alert');
  expect(html).not.toMatch(/="[^"]*"[^"]*<script>alert/);
  const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
  for (const [, body] of scripts) expect(body).not.toMatch(/<\/?script/i);
  expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(');
});

it('keeps the strings intact in JSON-LD', () => {
  const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);
  expect(ld.name).toBe(`Name ${EVIL}`);
  expect(ld.description).toBe(`Description ${EVIL}`);
  expect(ld.keywords).toContain(`tag ${EVIL}`);
  // Free text is a CreativeWork that names the license, never an IRI.
  expect(ld.license).toEqual({ '@type': 'CreativeWork', name: `License ${EVIL}` });
});

it('shows the strings as text', () => {
  expect(html).toContain('Name &lt;/script&gt;');
  expect(html).toContain('License &lt;/script&gt;');
});

it('shows the provenance as text, and links no script URL', () => {
  for (const label of ['Source', 'Prompt', 'Sent', 'Model', 'Key', 'Value', 'Run', 'Reason']) expect(html).toContain(`${label} &lt;/script&gt;`);
  expect(html).not.toMatch(/(href|src)="javascript:/i);
});

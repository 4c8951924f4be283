/**
 * The fast path through Astro's template renderer: it applies to the installed Astro and to nothing else, stops on an
 * Astro it was not made for, and renders any tree of templates, arrays, strings, numbers, functions and pending values
 * into exactly the writes Astro's own renderer makes, in the same order.
 */
import fc from 'fast-check';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../src/io/list-files.ts';
import { registryUrl } from '../../src/registry/registry-url.ts';
import { applyChange, changeFor, renderFastPath, RUNTIME_CHANGES, type RuntimeChange } from '../../src/site/render-fast-path.ts';
import { cachedRenderer } from '../../src/site/renderer-bundle.ts';
import { repoRoot } from '../support/build-site.ts';
import { siteDir } from '../support/site.ts';

const astroRoot = dirname(createRequire(import.meta.url).resolve('astro/package.json'));
const astroFile = (file: string): string => join(astroRoot, file);
const TEMPLATE_FILE = 'dist/runtime/server/render/astro/render-template.js';
const ANY_FILE = 'dist/runtime/server/render/any.js';
const change = (file: string): RuntimeChange => RUNTIME_CHANGES.find((c) => c.file === file)!;

describe('the changes', () => {
  it("apply to the installed Astro's runtime, each once", async () => {
    for (const c of RUNTIME_CHANGES) {
      const code = await readFile(astroFile(c.file), 'utf8');
      const changed = applyChange(c, code);
      expect(changed).not.toContain(c.original);
      expect(changed).toContain(c.replacement);
      expect(changed.length - code.length).toBe(c.replacement.length - c.original.length);
    }
  });

  it('stop on a file whose function is not the one they replace, naming the file', async () => {
    const c = change(ANY_FILE);
    const code = await readFile(astroFile(c.file), 'utf8');
    const edited = code.replace('const result = flusher.flush();', 'const result = flusher.flush(true);');
    expect(() => applyChange(c, edited)).toThrow(/^astro\/dist\/runtime\/server\/render\/any\.js is not the file of Astro 5\.18 .*the function it replaces is not there.*npm ci/);
    expect(() => applyChange(c, code + code)).toThrow(/any\.js .*the function it replaces is there twice/);
  });

  it("are found by the module's path, whatever its query or separators, and no other module is changed", async () => {
    const plugin = renderFastPath();
    const code = await readFile(astroFile(TEMPLATE_FILE), 'utf8');
    expect(changeFor(`${astroRoot}/${TEMPLATE_FILE}?v=123`)?.file).toBe(TEMPLATE_FILE);
    expect(changeFor(`C:\\project\\node_modules\\astro\\${ANY_FILE.replaceAll('/', '\\')}`)?.file).toBe(ANY_FILE);
    expect(plugin.transform(code, join(astroRoot, TEMPLATE_FILE))?.code).toContain('renderRestInOrder');
    expect(plugin.transform(code, '/project/src/render-template.js')).toBeNull();
    expect(plugin.transform(code, join(astroRoot, 'dist/runtime/server/render/astro/render.js'))).toBeNull();
  });
});

describe('the page renderer', () => {
  it("is built with the changes: Astro's runtime in it renders templates and arrays by the fast path", async () => {
    siteDir(); // the sample site's build has built the renderer of this code
    const { bundle } = await cachedRenderer(repoRoot, registryUrl());
    expect(bundle).not.toBeNull();
    const server = join(bundle!.dir, 'server');
    let code = '';
    for (const file of await listFiles(server)) if (file.endsWith('.mjs')) code += await readFile(join(server, file), 'utf8');
    expect(code).toContain('function renderRestInOrder(');
    expect(code).toContain('class RenderTemplateResult');
    for (const c of RUNTIME_CHANGES) expect(code).not.toContain(c.original.split('\n').slice(0, 3).join('\n'));
  });
});

/** A render tree, described as data so that each renderer builds its own from it. */
type Tree =
  | { kind: 'text'; value: string }
  | { kind: 'html'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'nothing'; value: null | undefined | false | '' }
  | { kind: 'array'; items: Tree[] }
  | { kind: 'template'; parts: string[]; items: Tree[] }
  | { kind: 'later'; hops: number; timer: boolean; tree: Tree }
  | { kind: 'function'; label: number; tree: Tree };

/** The parts of Astro's runtime a tree is built and rendered with. */
interface Runtime {
  renderChild: (destination: { write(chunk: unknown): void }, child: unknown) => unknown;
  renderTemplate: (parts: string[], ...expressions: unknown[]) => unknown;
  markHTMLString: (value: string) => unknown;
}

const text = fc.constantFrom('', 'a', 'x & y', '<b>', '"quoted"', 'plain words', '0');
const trees = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text.map((value) => ({ kind: 'text' as const, value })),
    text.map((value) => ({ kind: 'html' as const, value: `<i>${value}</i>` })),
    fc.constantFrom(0, 1, -2.5).map((value) => ({ kind: 'number' as const, value })),
    fc.constantFrom(null, undefined, false as const, '' as const).map((value) => ({ kind: 'nothing' as const, value })),
    fc.array(tie('tree'), { maxLength: 5 }).map((items) => ({ kind: 'array' as const, items })),
    fc
      .array(tie('tree'), { maxLength: 5 })
      .chain((items) => fc.array(text, { minLength: items.length + 1, maxLength: items.length + 1 }).map((parts) => ({ kind: 'template' as const, parts, items }))),
    fc.record({ hops: fc.integer({ min: 0, max: 3 }), timer: fc.boolean(), tree: tie('tree') }).map((r) => ({ kind: 'later' as const, ...r })),
    fc.record({ label: fc.nat(99), tree: tie('tree') }).map((r) => ({ kind: 'function' as const, ...r })),
  ),
}));

/** A value that settles after `hops` turns of the microtask queue, or of the timers. */
function later<T>(hops: number, timer: boolean, value: () => T): Promise<T> {
  if (hops === 0) return Promise.resolve().then(value);
  return new Promise<void>((resolve) => (timer ? setTimeout(resolve, 0) : queueMicrotask(resolve))).then(() => later(hops - 1, timer, value));
}

/** Builds the tree; each function, once called (when Astro starts rendering it), adds its label to `calls`. */
function build(tree: Tree, runtime: Runtime, calls: number[]): unknown {
  switch (tree.kind) {
    case 'text':
    case 'number':
    case 'nothing':
      return tree.value;
    case 'html':
      return runtime.markHTMLString(tree.value);
    case 'array':
      return tree.items.map((t) => build(t, runtime, calls));
    case 'template':
      return runtime.renderTemplate(tree.parts, ...tree.items.map((t) => build(t, runtime, calls)));
    case 'later':
      return later(tree.hops, tree.timer, () => build(tree.tree, runtime, calls));
    case 'function':
      return () => {
        calls.push(tree.label);
        return build(tree.tree, runtime, calls);
      };
  }
}

/**
 * Every write the renderer makes for the tree, as text, in order; and the order in which it started rendering the
 * tree's functions (Astro starts every expression of a template at once, before it writes the first).
 */
async function render(tree: Tree, runtime: Runtime): Promise<{ writes: string[]; calls: number[] }> {
  const writes: string[] = [];
  const calls: number[] = [];
  await runtime.renderChild({ write: (chunk) => void writes.push(String(chunk)) }, build(tree, runtime, calls));
  return { writes, calls };
}

describe('rendering with the changes', () => {
  let temp: string;
  let astro: Runtime;
  let fast: Runtime;

  beforeAll(async () => {
    // The changed files, beside Astro's own: their imports point at Astro's modules, but the changed template module
    // renders its children with the changed any.js.
    temp = await mkdtemp(join(tmpdir(), 'aso-fast-path-'));
    const load = async (file: string, imports: (specifier: string) => string): Promise<string> => {
      const changed = applyChange(change(file), await readFile(astroFile(file), 'utf8'));
      const relinked = changed.replace(/from "(\.\.?\/[^"]+)"/g, (_, specifier: string) => `from "${imports(specifier)}"`);
      const path = join(temp, file.split('/').pop()!);
      await writeFile(path, relinked);
      return pathToFileURL(path).href;
    };
    const original = (from: string) => (specifier: string) => new URL(specifier, pathToFileURL(astroFile(from))).href;
    const anyUrl = await load(ANY_FILE, original(ANY_FILE));
    const templateUrl = await load(TEMPLATE_FILE, (specifier) => (specifier === '../any.js' ? anyUrl : original(TEMPLATE_FILE)(specifier)));
    const escape = (await import(pathToFileURL(astroFile('dist/runtime/server/escape.js')).href)) as Pick<Runtime, 'markHTMLString'>;
    const astroAny = (await import(pathToFileURL(astroFile(ANY_FILE)).href)) as Pick<Runtime, 'renderChild'>;
    const astroTemplate = (await import(pathToFileURL(astroFile(TEMPLATE_FILE)).href)) as Pick<Runtime, 'renderTemplate'>;
    const fastAny = (await import(anyUrl)) as Pick<Runtime, 'renderChild'>;
    const fastTemplate = (await import(templateUrl)) as Pick<Runtime, 'renderTemplate'>;
    astro = { renderChild: astroAny.renderChild, renderTemplate: astroTemplate.renderTemplate, markHTMLString: escape.markHTMLString };
    fast = { renderChild: fastAny.renderChild, renderTemplate: fastTemplate.renderTemplate, markHTMLString: escape.markHTMLString };
  });

  afterAll(() => rm(temp, { recursive: true, force: true }));

  it('writes a page of templates, arrays and pending values as Astro does', async () => {
    const tree: Tree = {
      kind: 'template',
      parts: ['<ul>', '</ul><p>', '', '</p>'],
      items: [
        { kind: 'later', hops: 0, timer: false, tree: { kind: 'function', label: 1, tree: { kind: 'text', value: '<late>' } } },
        { kind: 'array', items: [{ kind: 'text', value: 'a & b' }, { kind: 'later', hops: 2, timer: true, tree: { kind: 'html', value: '<li>later</li>' } }, { kind: 'number', value: 0 }] },
        { kind: 'function', label: 2, tree: { kind: 'text', value: '<last>' } },
      ],
    };
    // The last function is called while the first expression is still pending: Astro starts every expression at once.
    const expected = { writes: ['<ul>', '&lt;late&gt;', '</ul><p>', 'a &amp; b', '<li>later</li>', '0', '&lt;last&gt;', '</p>'], calls: [2, 1] };
    expect(await render(tree, astro)).toEqual(expected);
    expect(await render(tree, fast)).toEqual(expected);
  });

  it('writes any tree exactly as Astro does, starting its parts in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(trees.tree, async (tree) => {
        expect(await render(tree, fast)).toEqual(await render(tree, astro));
      }),
      { numRuns: 500 },
    );
  });

  it('fails where Astro fails, with the same error, when a pending value is rejected', async () => {
    const failing = (runtime: Runtime): unknown =>
      runtime.renderTemplate(['<a>', '</a><b>', '</b>'], 'first', Promise.reject(new Error('no data for this page')));
    for (const runtime of [astro, fast]) {
      const out: string[] = [];
      await expect(Promise.resolve(runtime.renderChild({ write: (chunk) => void out.push(String(chunk)) }, failing(runtime)))).rejects.toThrow('no data for this page');
      expect(out).toEqual(['<a>', 'first', '</a><b>']);
    }
  });
});

/** `npm run compile-shapes`: the committed standalone validators are exactly what the generator makes of the schemas. */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHAPE_SCHEMAS, WORLD_SCHEMA } from '@aso-registry/core/format/shape-schemas';
import { compileShapes, validatorName, writeShapes } from '../../../packages/core/scripts/compile-shapes.ts';
import { repoRoot } from '../../support/build-site.ts';

const committed = join(repoRoot, 'packages', 'core', 'src', 'format', 'shapes');
let work: string;
let written: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-compile-shapes-'));
  written = await writeShapes(work);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('compile-shapes', () => {
  it('writes what is committed in packages/core/src/format/shapes/ (run `npm run compile-shapes -w @aso-registry/core` after a schema change)', async () => {
    expect((await readdir(committed)).sort()).toEqual([...written].sort());
    for (const file of written) expect(await readFile(join(committed, file), 'utf8'), file).toBe(await readFile(join(work, file), 'utf8'));
  });

  it('makes other output for a changed schema, so the check above catches a schema changed without a regeneration', async () => {
    const changed = compileShapes({ ...SHAPE_SCHEMAS, world: { ...WORLD_SCHEMA, required: ['id', 'name'] } });
    expect(changed.get('world.js')).not.toBe(await readFile(join(committed, 'world.js'), 'utf8'));
    expect(changed.get('manifest.js')).toBe(await readFile(join(committed, 'manifest.js'), 'utf8'));
  });

  it('writes one module per schema that imports its run-time helpers as ES modules and compiles nothing at run time', async () => {
    expect(written).toEqual(Object.keys(SHAPE_SCHEMAS).sort().flatMap((name) => [`${name}.js`, `${name}.d.ts`]));
    for (const name of Object.keys(SHAPE_SCHEMAS)) {
      const js = await readFile(join(work, `${name}.js`), 'utf8');
      expect(js).toMatch(new RegExp(`^export const ${validatorName(name)} = validate\\d+;$`, 'm'));
      for (const line of js.split('\n').filter((l) => l.startsWith('import'))) expect(line).toMatch(/^import \* as \w+ from "(ajv\/dist\/runtime|ajv-formats\/dist)\/\w+\.js";$/);
      expect(js).not.toMatch(/\brequire\(|module\.exports|new Function|ajv\/dist\/compile/);
      expect(await readFile(join(work, `${name}.d.ts`), 'utf8')).toContain(`export declare const ${validatorName(name)}: ShapeValidator;`);
    }
    const manifest = await readFile(join(work, 'manifest.js'), 'utf8');
    expect(manifest).toContain('import * as ajv_dist_runtime_ucs2length from "ajv/dist/runtime/ucs2length.js";');
    expect(manifest).toContain('import * as ajv_formats_dist_formats from "ajv-formats/dist/formats.js";');
  });

  it('refuses a keyword it does not know (strict mode) and a schema the draft 2020-12 meta-schema refuses', () => {
    expect(() => compileShapes({ name: { type: 'string', minimumLength: 3 } })).toThrow(/unknown keyword: "minimumLength"/);
    expect(() => compileShapes({ name: { type: 'string', minLength: '1' } })).toThrow(/minLength/);
  });
});

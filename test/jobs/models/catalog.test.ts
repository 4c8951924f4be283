import { describe, expect, it } from 'vitest';
import { findModel, generatorRecord, MODEL_CATALOG } from '../../../src/jobs/models/catalog.ts';
import { numberParameter } from '../../../src/jobs/models/model-run.ts';
import { runModel } from '../../../src/jobs/models/run-model.ts';

describe('findModel', () => {
  it('finds every catalog entry by id, and nothing else', () => {
    for (const m of MODEL_CATALOG) expect(findModel(m.id)).toBe(m);
    expect(findModel('Relief')).toBeUndefined();
    expect(findModel('')).toBeUndefined();
  });
});

describe('generatorRecord', () => {
  it("records the model's id, version, provider and a copy of its parameters", () => {
    const relief = findModel('relief')!;
    const record = generatorRecord(relief);
    expect(record).toEqual({ model: 'relief', version: relief.version, provider: relief.provider, parameters: relief.parameters });
    record.parameters.depth = 99;
    expect(relief.parameters.depth).not.toBe(99);
  });
});

describe('the catalog and the models', () => {
  it('has a model run for every entry, each reading its numeric parameters', async () => {
    for (const m of MODEL_CATALOG) {
      for (const [name, value] of Object.entries(m.parameters)) if (typeof value === 'number') expect(numberParameter(m.parameters, name)).toBe(value);
      const error = await runModel(m.id, new Uint8Array([1, 2, 3])).catch((e: Error) => e);
      expect((error as Error).message, m.id).not.toMatch(/^unknown model/);
    }
    await expect(runModel('sculpt', new Uint8Array())).rejects.toThrow('unknown model "sculpt"; expected one of relief, silhouette, card, lithophane, points');
  });
});

describe('numberParameter', () => {
  it('refuses a parameter that is missing or not a number', () => {
    expect(() => numberParameter({ size: '1' }, 'size')).toThrow('model parameter "size" is missing or not a number');
    expect(() => numberParameter({}, 'depth')).toThrow('model parameter "depth" is missing or not a number');
  });
});

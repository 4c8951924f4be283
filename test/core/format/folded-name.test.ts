import { describe, expect, it } from 'vitest';
import { caseCollisions, foldedName } from '@aso-registry/core/format/folded-name';

describe('folded names', () => {
  it('folds case, composed and decomposed accents and ß alike', () => {
    expect(foldedName('Mesh.GLB')).toBe(foldedName('mesh.glb'));
    expect(foldedName('1.0.0-RC.1')).toBe('1.0.0-rc.1');
    expect(foldedName('caf\u00e9')).toBe(foldedName('CAFE\u0301'));
    expect(foldedName('Stra\u00dfe')).toBe(foldedName('STRASSE'));
    expect(foldedName('mesh-a')).not.toBe(foldedName('mesh-b'));
  });

  it('names each later name that collides with an earlier one', () => {
    expect(caseCollisions(['Chair', 'chair', 'table', 'CHAIR', 'Table'])).toEqual([
      { name: 'chair', first: 'Chair' },
      { name: 'CHAIR', first: 'Chair' },
      { name: 'Table', first: 'table' },
    ]);
    expect(caseCollisions(['a', 'b'])).toEqual([]);
  });
});

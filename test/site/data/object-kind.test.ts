import { describe, expect, it } from 'vitest';
import { hasKindIcon, kindLabel, objectKind } from '../../../src/site/data/object-kind.ts';

const of = (...types: string[]) => ({ representations: types.map((type) => ({ type })) });

describe('objectKind', () => {
  it('names a version by its most telling representation: a mesh before a point cloud before an image', () => {
    expect(objectKind(of('image', 'mesh'))).toBe('mesh');
    expect(objectKind(of('image', 'point-cloud'))).toBe('point-cloud');
    expect(objectKind(of('image'))).toBe('image');
  });

  it('falls back to the first type a manifest declares, and to "file" for none', () => {
    expect(objectKind(of('volume', 'image'))).toBe('image');
    expect(objectKind(of('volume', 'gaussian-splat'))).toBe('volume');
    expect(objectKind(of())).toBe('file');
  });
});

describe('kindLabel and hasKindIcon', () => {
  it('labels the known kinds for people and any other as it is spelled', () => {
    expect([kindLabel('mesh'), kindLabel('point-cloud'), kindLabel('image'), kindLabel('<b>x</b>')]).toEqual(['Mesh', 'Point cloud', 'Image', '<b>x</b>']);
    expect([hasKindIcon('mesh'), hasKindIcon('point-cloud'), hasKindIcon('image'), hasKindIcon('volume')]).toEqual([true, true, true, false]);
  });
});

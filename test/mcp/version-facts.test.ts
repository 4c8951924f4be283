import { describe, expect, it } from 'vitest';
import { factDifferences, type VersionFacts } from '../../src/mcp/version-facts.ts';

const facts: VersionFacts = {
  name: 'Chair',
  description: 'A chair.',
  tags: ['wood', 'chair'],
  license: 'CC0-1.0',
  createdAt: '2026-01-01T00:00:00Z',
  publishedAt: '2026-01-02T00:00:00Z',
  publisher: 'p',
  signed: false,
  generator: null,
  retracted: false,
  type: 'mesh',
  representations: ['mesh: mesh glb, 10 bytes, sha256-a'],
  totalBytes: 10,
  triangles: 12,
  vertices: 24,
  drawCalls: 1,
  materials: 1,
  textures: 0,
  animations: 0,
  extensionsRequired: [],
};

describe('factDifferences', () => {
  it('lists each fact that differs in the order of the facts, with what a list gained and lost', () => {
    const to: VersionFacts = { ...facts, tags: ['chair', 'oak'], license: null, triangles: 40 };
    expect(factDifferences(facts, to)).toEqual([
      { field: 'tags', from: ['wood', 'chair'], to: ['chair', 'oak'], added: ['oak'], removed: ['wood'] },
      { field: 'license', from: 'CC0-1.0', to: null },
      { field: 'triangles', from: 12, to: 40 },
    ]);
  });

  it('is empty for the same facts', () => {
    expect(factDifferences(facts, { ...facts, tags: [...facts.tags] })).toEqual([]);
  });
});

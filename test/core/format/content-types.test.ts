import { describe, expect, it } from 'vitest';
import { CONTENT_TYPES, contentTypeOf, DEFAULT_CONTENT_TYPE, nginxExtraTypes } from '@aso-registry/core/format/content-types';

describe('content types', () => {
  it('gives every file of the site a type, by extension, case-insensitively', () => {
    expect(contentTypeOf('ledger.jsonl')).toBe('application/jsonl');
    expect(contentTypeOf('objects/a/versions/1.0.0/representations/cloud.ply')).toBe('application/octet-stream');
    expect(contentTypeOf('objects/a/versions/1.0.0/representations/mesh.GLB')).toBe('model/gltf-binary');
    expect(contentTypeOf('x/scene.gltf')).toBe('model/gltf+json');
    expect(contentTypeOf('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('pagefind/fragment/en_1.pf_fragment')).toBe('application/octet-stream');
    expect(contentTypeOf('_headers')).toBe('text/plain; charset=utf-8');
    expect(contentTypeOf('a/b/no-extension')).toBe(DEFAULT_CONTENT_TYPE);
    expect(contentTypeOf('.hidden')).toBe(DEFAULT_CONTENT_TYPE);
  });

  it('has each extension once, lowercase', () => {
    const exts = CONTENT_TYPES.map((e) => e.ext);
    expect(new Set(exts).size).toBe(exts.length);
    for (const ext of exts) expect(ext).toMatch(/^[a-z0-9_]+$/);
  });

  it('gives nginx only the types its mime.types lacks, grouped by type', () => {
    const lines = nginxExtraTypes();
    expect(lines).toContain('model/gltf-binary glb;');
    expect(lines).toContain('application/jsonl jsonl;');
    expect(lines).toContain('application/octet-stream ply pagefind pf_fragment pf_index pf_meta;');
    expect(lines.join(' ')).not.toMatch(/\b(html|json|js|png);/);
  });
});

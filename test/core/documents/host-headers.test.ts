import { describe, expect, it } from 'vitest';
import { headersFile, headersFor, hostHeaderRules } from '../../../src/core/documents/host-headers.ts';

describe('host headers', () => {
  it('allows every origin on every JSON and byte path, the ledger included', () => {
    for (const path of ['/ledger.jsonl', '/retractions.jsonl', '/api/v1/objects.json', '/objects/a/versions/1.0.0/agent.json', '/objects/a/versions/1.0.0/representations/mesh.glb', '/feed.json', '/feed.xml', '/']) {
      expect(headersFor(path)['Access-Control-Allow-Origin'], path).toBe('*');
    }
  });

  it('caches published bytes forever and revalidates what grows', () => {
    expect(headersFor('/objects/a/versions/1.0.0/aso.object.json')['Cache-Control']).toContain('immutable');
    expect(headersFor('/objects/a/versions/1.0.0/representations/cloud.ply')['Cache-Control']).toContain('immutable');
    expect(headersFor('/objects/a/versions/1.0.0/agent.json')['Cache-Control']).toBe('public, max-age=300, must-revalidate');
    expect(headersFor('/ledger.jsonl')['Cache-Control']).toBe('public, max-age=60, must-revalidate');
    expect(headersFor('/objects/a/versions/1.0.0/')['Cache-Control']).toBeUndefined();
  });

  it('sets the content types hosts may not know', () => {
    expect(headersFor('/ledger.jsonl')['Content-Type']).toBe('application/jsonl');
    expect(headersFor('/objects/a/versions/1.0.0/representations/mesh.glb')['Content-Type']).toBe('model/gltf-binary');
    expect(headersFor('/objects/a/versions/1.0.0/representations/cloud.ply')['Content-Type']).toBe('application/octet-stream');
  });

  it('never sets one header from two rules that can match the same path (hosts would join the values)', () => {
    const rules = hostHeaderRules();
    const samples = ['/', '/index.html', '/ledger.jsonl', '/retractions.jsonl', '/_headers', '/api/v1/objects.json', '/thumbnails/x-w320.webp', '/feed.xml', '/pagefind/pagefind.js'];
    for (const rep of ['mesh.glb', 'scene.gltf', 'cloud.ply', 'ref.jpg', 'preview.png']) samples.push(`/objects/a/versions/1.0.0/representations/${rep}`);
    samples.push('/objects/a/versions/1.0.0/aso.object.json', '/objects/a/versions/1.0.0/agent.json');
    for (const path of samples) {
      const seen = new Map<string, string>();
      for (const r of rules) {
        if (!headersFor(path, [r])[Object.keys(r.headers)[0]!]) continue;
        for (const key of Object.keys(r.headers)) {
          expect(seen.has(key), `${path}: ${key} set by ${seen.get(key)} and ${r.pattern}`).toBe(false);
          seen.set(key, r.pattern);
        }
      }
    }
  });

  it('writes _headers as pattern lines with indented headers', () => {
    const text = headersFile();
    expect(text).toContain('/*\n  Access-Control-Allow-Origin: *\n');
    expect(text).toContain('/*.jsonl\n  Content-Type: application/jsonl\n');
    expect(text).toContain('/objects/*/versions/*/representations/*\n  Cache-Control: public, max-age=31536000, immutable\n');
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadExtensions, headersFile, headersFor, hostHeaderRules } from '@aso-registry/core/documents/host-headers';
import { RUNTIMES } from '@aso-registry/core/format/compatibility';
import { repoRoot } from '../../support/build-site.ts';

const REP = '/objects/a/versions/1.0.0/representations';
const SHOWN = RUNTIMES.flatMap((r) => r.formats);

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
    const rules = hostHeaderRules(['shape.obj', 'cloud.PLY']);
    const samples = ['/', '/index.html', '/ledger.jsonl', '/retractions.jsonl', '/_headers', '/api/v1/objects.json', '/thumbnails/x-w320.webp', '/feed.xml', '/pagefind/pagefind.js'];
    for (const rep of ['mesh.glb', 'scene.gltf', 'cloud.ply', 'ref.jpg', 'preview.png', 'shape.obj']) samples.push(`/objects/a/versions/1.0.0/representations/${rep}`);
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

  it('serves every representation file with nosniff and a sandbox, and as a download when no runtime shows its kind', () => {
    for (const name of [...SHOWN.map((f) => `file.${f}`), 'cloud.ply', 'shape.obj', 'scene.usdz', 'noext']) {
      const headers = headersFor(`${REP}/${name}`);
      expect(headers['X-Content-Type-Options'], name).toBe('nosniff');
      expect(headers['Content-Security-Policy'], name).toBe('sandbox');
      const shown = SHOWN.includes(name.slice(name.lastIndexOf('.') + 1)) && name.includes('.');
      expect(headers['Content-Disposition'], name).toBe(shown || name === 'noext' ? undefined : 'attachment');
    }
    expect(headersFor('/objects/a/versions/1.0.0/')['Content-Security-Policy']).toBeUndefined();
    expect(headersFor('/objects/a/versions/1.0.0/aso.object.json')['Content-Disposition']).toBeUndefined();
  });

  it("writes a download line to _headers for each kind of the registry's files no runtime shows", () => {
    expect(downloadExtensions(['mesh.glb', 'shape.obj', 'ref.jpg', 'cloud.PLY', 'odd.x y', 'odd.a*b'])).toEqual(['PLY', 'obj', 'ply']);
    const text = headersFile(hostHeaderRules(['shape.obj']));
    expect(text).toContain('/objects/*/versions/*/representations/*\n  Cache-Control: public, max-age=31536000, immutable\n  Content-Security-Policy: sandbox\n');
    expect(text).toContain('/objects/*/versions/*/representations/*.obj\n  Content-Disposition: attachment\n');
    expect(text).toContain('/objects/*/versions/*/representations/*.ply\n  Content-Disposition: attachment\n');
    expect(text).not.toContain('*.glb\n  Content-Disposition');
  });
});

describe('the nginx example of docs/site.md', () => {
  /** The `location ~` blocks of the example in order, each with its regular expression and its `add_header` lines. */
  const locations = async (): Promise<Array<{ regex: RegExp; headers: Map<string, string> }>> => {
    const doc = await readFile(join(repoRoot, 'docs', 'site.md'), 'utf8');
    const block = /```nginx\n([\s\S]*?)```/.exec(doc)![1]!;
    return [...block.matchAll(/location ~ (\S+) \{([^}]*)\}/g)].map((m) => ({
      regex: new RegExp(m[1]!),
      headers: new Map([...m[2]!.matchAll(/add_header (\S+) "([^"]*)"/g)].map((h) => [h[1]!, h[2]!])),
    }));
  };

  it('serves every representation as _headers does: nosniff, a sandbox, and a download when no runtime shows its kind', async () => {
    const all = await locations();
    for (const name of [...SHOWN.map((f) => `file.${f}`), 'cloud.ply', 'shape.obj', 'mesh.GLB']) {
      const path = `${REP}/${name}`;
      // nginx takes the first regular expression location that matches.
      const location = all.find((l) => l.regex.test(path));
      expect(location, path).toBeDefined();
      expect(location!.headers.get('Content-Security-Policy'), path).toBe('sandbox');
      expect(location!.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      const expected = headersFor(path, hostHeaderRules([name]));
      for (const header of ['X-Content-Type-Options', 'Content-Security-Policy', 'Content-Disposition', 'Cache-Control', 'Access-Control-Allow-Origin']) {
        expect(location!.headers.get(header), `${path}: ${header}`).toBe(expected[header]);
      }
    }
  });
});

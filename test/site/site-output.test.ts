/** The built sample site: every read path exists, bytes are identical, documents have their shape, texts are exact. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDocument, ApiCatalog, ApiIndex, ApiObject, ApiVersion } from '@aso-registry/core/documents/api-types';
import { compatibilityReport, noCompatibleText, pickPresentable } from '@aso-registry/core/format/compatibility';
import { formatCount } from '@aso-registry/core/documents/format-count';
import { headersFile } from '@aso-registry/core/documents/host-headers';
import { sriToHex } from '@aso-registry/core/format/sri';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';
import { latestVersion } from '@aso-registry/core/format/latest';
import { DENSE_THUMBNAIL_BOX, denseThumbnailKey, THUMBNAIL_BOX, thumbnailKey, thumbnailSource, wantsDense } from '../../src/site/data/thumbnails.ts';
import { repoRoot } from '../support/build-site.ts';
import { sri } from '../support/fixture-registry.ts';
import { siteDir } from '../support/site.ts';

const ORIGIN = 'https://registry.example.org';

interface SampleVersion {
  dir: string;
  manifest: Manifest;
  manifestBytes: Buffer;
  publication: PublicationRecord;
}

async function sampleVersions(): Promise<SampleVersion[]> {
  const out: SampleVersion[] = [];
  const objects = join(repoRoot, 'registry', 'objects');
  for (const id of await readdir(objects)) {
    for (const version of await readdir(join(objects, id, 'versions'))) {
      const dir = `objects/${id}/versions/${version}`;
      const manifestBytes = await readFile(join(repoRoot, 'registry', dir, 'aso.object.json'));
      out.push({
        dir,
        manifestBytes,
        manifest: JSON.parse(manifestBytes.toString('utf8')) as Manifest,
        publication: JSON.parse(await readFile(join(repoRoot, 'registry', dir, 'publication.json'), 'utf8')) as PublicationRecord,
      });
    }
  }
  return out;
}

/** Text of an HTML page with tags removed and entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#34;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

let dist: string;
let versions: SampleVersion[];
const page = (dir: string) => readFile(join(dist, dir, 'index.html'), 'utf8');
const json = async <T>(path: string) => JSON.parse(await readFile(join(dist, path), 'utf8')) as T;

beforeAll(async () => {
  dist = siteDir();
  versions = await sampleVersions();
});

describe('read paths of every version', () => {
  it('copies each manifest byte for byte, and its SRI is the record hash', async () => {
    expect(versions.length).toBeGreaterThanOrEqual(7);
    for (const v of versions) {
      const built = await readFile(join(dist, v.dir, 'aso.object.json'));
      expect(built.equals(v.manifestBytes), v.dir).toBe(true);
      expect(sri(built)).toBe(v.publication.recordHash);
    }
  });

  it('copies every representation and preview byte for byte', async () => {
    for (const v of versions) {
      for (const rep of [...v.manifest.representations, ...(v.manifest.preview ? [v.manifest.preview] : [])]) {
        const rel = `${v.dir}/representations/${rep.id}.${rep.format}`;
        const built = await readFile(join(dist, rel));
        expect(built.equals(await readFile(join(repoRoot, 'registry', rel))), rel).toBe(true);
        expect(built.length).toBe(rep.byteLength);
        expect(sri(built)).toBe(rep.hash);
        expect(rep.url).toBe(`${ORIGIN}/${rel}`);
      }
    }
  });

  it('writes agent.json with identity, hashes, compatibility, versions and the SDK base', async () => {
    for (const v of versions) {
      const { id, version } = v.manifest;
      const doc = await json<AgentDocument>(`${v.dir}/agent.json`);
      const all = versions.filter((x) => x.manifest.id === id).map((x) => x.manifest.version);
      expect(doc).toMatchObject({
        schema: 'aso/agent/v0.1',
        id,
        version,
        name: v.manifest.name,
        description: v.manifest.description,
        tags: v.manifest.tags,
        license: v.manifest.license ?? null,
        recordHash: v.publication.recordHash,
        manifestUrl: `${ORIGIN}/${v.dir}/aso.object.json`,
        pageUrl: `${ORIGIN}/${v.dir}/`,
        versionsUrl: `${ORIGIN}/api/v1/objects/${id}.json`,
        latestVersion: latestVersion(all),
        sdkBaseUrl: `${ORIGIN}/api/v1`,
      });
      expect(doc.verification).toMatch(/byteLength/);
      expect(doc.representations.map((r) => r.id)).toEqual([
        ...v.manifest.representations.map((r) => r.id),
        ...(v.manifest.preview ? [v.manifest.preview.id] : []),
      ]);
      for (const rep of doc.representations) {
        expect(rep.compatibility).toBe(compatibilityReport(rep, true));
        expect(rep.sha256).toBe(sriToHex(rep.hash));
      }
    }
  });
});

describe('the JSON API', () => {
  it('has an index, a catalog, an object document and a version document for everything', async () => {
    const index = await json<ApiIndex>('api/v1/index.json');
    expect(index).toMatchObject({ schema: 'aso/api/v1/index', registryUrl: ORIGIN });
    expect(index.counts.versions).toBe(versions.length);
    const catalog = await json<ApiCatalog>('api/v1/objects.json');
    const ids = [...new Set(versions.map((v) => v.manifest.id))].sort();
    expect(catalog.objects.map((o) => o.id).sort()).toEqual(ids);
    expect(catalog).toMatchObject({ page: 1, pageCount: 1, total: ids.length, prev: null, next: null });
    // Newest publication first.
    const newest = (id: string) => Math.max(...versions.filter((v) => v.manifest.id === id).map((v) => Date.parse(v.publication.publishedAt)));
    const times = catalog.objects.map((o) => newest(o.id));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const id of ids) {
      const object = await json<ApiObject>(`api/v1/objects/${id}.json`);
      const mine = versions.filter((v) => v.manifest.id === id);
      expect(object.versions.map((v) => v.version).sort()).toEqual(mine.map((v) => v.manifest.version).sort());
      expect(object.latest).toBe(latestVersion(mine.map((v) => v.manifest.version)));
      for (const v of mine) {
        const doc = await json<ApiVersion>(`api/v1/objects/${id}/versions/${v.manifest.version}.json`);
        expect(doc.manifest).toEqual(v.manifest);
        expect(doc.publication).toEqual(v.publication);
      }
    }
  });
});

describe('record pages', () => {
  it('show the publication record, the inventory and the alternates of every version', async () => {
    for (const v of versions) {
      const html = await page(v.dir);
      const text = textOf(html);
      for (const label of ['Created', 'Published', 'Generator', 'License', 'Publisher', 'Publication', 'Manifest status', 'Verified', 'Record hash', 'Storage URL']) {
        expect(text, `${v.dir}: ${label}`).toContain(label);
      }
      expect(text).toContain(v.publication.recordHash);
      expect(text).toContain(v.publication.publicationId);
      for (const rep of v.manifest.representations) {
        expect(text).toContain(`${rep.type} · ${rep.format} · ${rep.mediaType}`);
        expect(text).toContain(formatCount(rep.byteLength));
        expect(text).toContain(rep.hash);
      }
      expect(html).toMatch(/<link rel="alternate" href="[^"]*aso\.object\.json" type="application\/json"/);
      expect(html).toMatch(/<link rel="alternate" href="[^"]*agent\.json" type="application\/json"/);
      expect(html).toContain('<meta property="og:title"');
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);
      expect(ld['@type']).toBe('3DModel');
      expect(ld.encoding.map((e: { sha256: string }) => e.sha256)).toContain(sriToHex(v.manifest.representations[0]!.hash));
      expect(Buffer.byteLength(html)).toBeLessThan(50_000);
    }
  });

  it('write byte counts with thousands separators', async () => {
    const big = versions.flatMap((v) => v.manifest.representations.map((r) => ({ v, r }))).find(({ r }) => r.byteLength >= 1000);
    expect(big).toBeDefined();
    const text = textOf(await page(big!.v.dir));
    expect(text).toMatch(new RegExp(`\\b${formatCount(big!.r.byteLength).replace(/,/g, ',')}\\b`));
    expect(formatCount(big!.r.byteLength)).toContain(',');
  });

  it('show "Not declared" for a version without license', async () => {
    const unlicensed = versions.filter((v) => v.manifest.license === undefined);
    expect(unlicensed.length).toBeGreaterThan(0);
    for (const v of unlicensed) expect(textOf(await page(v.dir))).toMatch(/License Not declared/);
  });

  it('show the full Unsupported report verbatim for a version that no runtime can load', async () => {
    const unsupported = versions.filter((v) => !pickPresentable(v.manifest.representations));
    expect(unsupported.length).toBeGreaterThan(0);
    for (const v of unsupported) {
      const text = textOf(await page(v.dir));
      expect(text).toContain('No installed runtime');
      expect(text).toContain('Preview unavailable');
      expect(text).toContain('Unsupported');
      expect(text).toContain(noCompatibleText(v.manifest.representations));
    }
  });

  it('show "Runtime compatible" and which runtime loads which representation otherwise', async () => {
    const mesh = versions.find((v) => v.manifest.representations.some((r) => r.type === 'mesh'))!;
    const text = textOf(await page(mesh.dir));
    expect(text).toContain('Runtime compatible');
    const rep = mesh.manifest.representations.find((r) => r.type === 'mesh')!;
    expect(text).toContain(`browser-gltf can load representation ${rep.id}`);
  });

  it('list the version history newest first and the worlds of each version', async () => {
    const ids = [...new Set(versions.map((v) => v.manifest.id))];
    const many = ids.map((id) => versions.filter((v) => v.manifest.id === id)).find((list) => list.length >= 3)!;
    expect(many).toBeDefined();
    const html = await page(many[0]!.dir);
    const listed = [...html.matchAll(/<li data-version="([^"]+)"/g)].map((m) => m[1]);
    const expected = [...many].sort((a, b) => Date.parse(b.manifest.createdAt) - Date.parse(a.manifest.createdAt)).map((v) => v.manifest.version);
    expect(listed).toEqual(expected);
    const worlds = await readdir(join(repoRoot, 'registry', 'worlds'));
    expect(worlds.length).toBeGreaterThan(0);
    let referenced = 0;
    let unreferenced = 0;
    for (const v of versions) {
      const text = textOf(await page(v.dir));
      if (text.includes('No indexed world references this version.')) unreferenced++;
      else referenced++;
    }
    expect(referenced).toBeGreaterThan(0);
    expect(unreferenced).toBeGreaterThan(0);
  });
});

describe('catalog and crawl entry points', () => {
  it('lists every object with a thumbnail of the right size, and one page per tag and per world', async () => {
    const html = await readFile(join(dist, 'index.html'), 'utf8');
    const { default: sharp } = await import('sharp');
    for (const id of new Set(versions.map((v) => v.manifest.id))) expect(html).toContain(`data-object="${id}"`);
    const imgs = [...html.matchAll(/<img[^>]* src="\/(thumbnails\/[^"]+\.webp)"(?: srcset="[^"]*")? width="(\d+)" height="(\d+)"/g)];
    expect(imgs.length).toBeGreaterThan(0);
    for (const [, file, w, h] of imgs) {
      const meta = await sharp(join(dist, file!)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', Number(w), Number(h)]);
    }
    const ids = [...new Set(versions.map((v) => v.manifest.id))];
    const latestTags = ids.flatMap((id) => {
      const mine = versions.filter((v) => v.manifest.id === id);
      const latest = latestVersion(mine.map((v) => v.manifest.version));
      return mine.find((v) => v.manifest.version === latest)!.manifest.tags;
    });
    for (const tag of latestTags) expect(textOf(html)).toContain(tag);
    const tagPages = await readdir(join(dist, 'tags'));
    expect(tagPages.length).toBeGreaterThan(0);
    for (const w of await readdir(join(repoRoot, 'registry', 'worlds'))) await stat(join(dist, 'worlds', w.replace(/\.json$/, ''), 'index.html'));
  });

  it('holds one WebP per distinct source image that fits a card\'s box, and its dense twin when the source is large enough, and pages link only those', async () => {
    const { default: sharp } = await import('sharp');
    const withImage = versions.flatMap((v) => {
      const source = thumbnailSource(v.manifest);
      return source ? [{ hash: source.hash, file: join(repoRoot, 'registry', v.dir, 'representations', `${source.id}.${source.format}`) }] : [];
    });
    const sources = new Map(withImage.map((s) => [s.hash, s.file]));
    // Two sample versions share their preview, which is made and copied once.
    expect(sources.size).toBeGreaterThan(1);
    expect(sources.size).toBeLessThan(withImage.length);
    const expected: string[] = [];
    for (const [hash, file] of sources) {
      const { width, height } = await sharp(file).metadata();
      expected.push(`${thumbnailKey(hash)}.webp`);
      if (wantsDense({ width, height })) expected.push(`${denseThumbnailKey(hash)}.webp`);
    }
    // The sample has both: previews barely larger than a card's box, and a photo with pixels for dense screens.
    expect(expected.length).toBeGreaterThan(sources.size);
    expect((await readdir(join(dist, 'thumbnails'))).sort()).toEqual(expected.sort());
    for (const name of expected) {
      const meta = await sharp(join(dist, 'thumbnails', name)).metadata();
      const box = name.includes(`-${DENSE_THUMBNAIL_BOX.width}x`) ? DENSE_THUMBNAIL_BOX : THUMBNAIL_BOX;
      expect(meta.format, name).toBe('webp');
      expect(meta.width, name).toBeLessThanOrEqual(box.width);
      expect(meta.height, name).toBeLessThanOrEqual(box.height);
    }
    const pages = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.html'));
    const linked = new Set<string>();
    for (const file of pages) {
      const html = await readFile(join(dist, file), 'utf8');
      expect(html, file).not.toContain('<picture');
      for (const [, name] of html.matchAll(/\/thumbnails\/([0-9a-f]{64}-[^"\s]+\.webp)/g)) linked.add(name!);
    }
    expect([...linked].sort()).toEqual(expected.sort());
  });

  it('has a sitemap with every record page, robots.txt pointing at it, and llms.txt', async () => {
    const index = await readFile(join(dist, 'sitemap-index.xml'), 'utf8');
    const parts = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(ORIGIN + '/', ''));
    let urls = '';
    for (const p of parts) urls += await readFile(join(dist, p), 'utf8');
    for (const v of versions) expect(urls).toContain(`<loc>${ORIGIN}/${v.dir}/</loc>`);
    expect(await readFile(join(dist, 'robots.txt'), 'utf8')).toContain(`Sitemap: ${ORIGIN}/sitemap-index.xml`);
    const llms = await readFile(join(dist, 'llms.txt'), 'utf8');
    expect(llms.startsWith('# ')).toBe(true);
    expect(llms).toContain(`${ORIGIN}/api/v1/objects.json`);
    for (const id of new Set(versions.map((v) => v.manifest.id))) expect(llms).toContain(`${ORIGIN}/api/v1/objects/${id}.json`);
  });

  it('ships _headers with immutable caching and CORS for published bytes', async () => {
    const headers = await readFile(join(dist, '_headers'), 'utf8');
    expect(headers).toBe(headersFile());
    expect(headers).toMatch(/^\/\*\n\s+Access-Control-Allow-Origin: \*/m);
    expect(headers).toMatch(/\/objects\/\*\/versions\/\*\/representations\/\*\n\s+Cache-Control: public, max-age=31536000, immutable\n/);
    expect(headers).toMatch(/\*\.jsonl\n\s+Content-Type: application\/jsonl/);
    expect(headers).toMatch(/\*\.glb\n\s+Content-Type: model\/gltf-binary/);
    expect(headers).toMatch(/\*\.gltf\n\s+Content-Type: model\/gltf\+json/);
  });
});

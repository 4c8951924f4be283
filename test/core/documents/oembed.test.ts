import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { EMBED_SIZE, embedHtml, escapeHtml, oembedDocument, registryName } from '@aso-registry/core/documents/oembed';

const chair = { registryUrl: 'https://registry.example.org', id: 'oak-chair', version: '1.1.0', name: 'Oak chair' };

/** The attributes of the one element of `html`, as a browser-like parser reads them (character references decoded). */
async function iframeOf(html: string): Promise<Record<string, string>> {
  // The snippet sets its own border: an inline style is the embedder's to keep or drop.
  const validator = new HtmlValidate({ extends: ['html-validate:recommended'], rules: { 'no-inline-style': 'off' } });
  const report = await validator.validateString(`<!DOCTYPE html><html lang="en"><head><title>t</title></head><body>${html}</body></html>`);
  expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([]);
  const attrs: Record<string, string> = {};
  const tag = /^<iframe ([^>]*)><\/iframe>$/.exec(html)![1]!;
  for (const m of tag.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)) attrs[m[1]!] = (m[2] ?? '').replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  return attrs;
}

describe('oembedDocument', () => {
  it('is a rich oEmbed 1.0 document whose html is an iframe of the embed page on the registry', async () => {
    const doc = oembedDocument(chair, { url: 'https://registry.example.org/thumbnails/ab-w320-e2.webp', width: 320, height: 240 });
    expect(doc).toEqual({
      version: '1.0',
      type: 'rich',
      title: 'Oak chair 1.1.0',
      provider_name: 'registry.example.org',
      provider_url: 'https://registry.example.org/',
      html: doc.html,
      width: EMBED_SIZE.width,
      height: EMBED_SIZE.height,
      thumbnail_url: 'https://registry.example.org/thumbnails/ab-w320-e2.webp',
      thumbnail_width: 320,
      thumbnail_height: 240,
    });
    const iframe = await iframeOf(doc.html);
    expect(iframe).toMatchObject({
      src: 'https://registry.example.org/objects/oak-chair/versions/1.1.0/embed/',
      width: String(EMBED_SIZE.width),
      height: String(EMBED_SIZE.height),
      title: 'Oak chair 1.1.0 (3D viewer)',
    });
  });

  it('has no thumbnail member at all when the version has no thumbnail', () => {
    const doc = oembedDocument({ ...chair, registryUrl: 'https://registry.example.org/' });
    expect(Object.keys(doc).filter((k) => k.startsWith('thumbnail'))).toEqual([]);
    expect(doc.provider_url).toBe('https://registry.example.org/');
  });

  it('keeps a hostile name text: nothing in it closes the attribute or opens an element', async () => {
    const name = `"><img src=x onerror=alert(1)> 'x' & <script>alert(2)</script>`;
    const doc = oembedDocument({ ...chair, name });
    expect(doc.title).toBe(`${name} 1.1.0`);
    expect(doc.html).not.toMatch(/<(img|script)/);
    expect(doc.html.match(/</g)).toHaveLength(2);
    expect((await iframeOf(doc.html)).title).toBe(`${name} 1.1.0 (3D viewer)`);
  });

  it('encodes the path of a version with build metadata and escapes a registry URL with quotes', async () => {
    const html = embedHtml({ ...chair, version: '1.0.0+build.5', registryUrl: 'https://r.example/"x' });
    expect((await iframeOf(html)).src).toBe('https://r.example/"x/objects/oak-chair/versions/1.0.0+build.5/embed/');
  });
});

describe('escapeHtml and registryName', () => {
  it('escapes the five characters of markup and names a registry by its host', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
    expect(registryName('https://registry.example.org')).toBe('registry.example.org');
    expect(registryName('http://127.0.0.1:4321/')).toBe('127.0.0.1:4321');
    expect(registryName('not a url')).toBe('not a url');
  });
});

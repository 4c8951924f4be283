/** The built sample site against standard validators: html-validate, JSON-LD expansion, feed parsers, the sitemap. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAtomFeed, parseJsonFeed } from 'feedsmith';
import { HtmlValidate, type ConfigData } from 'html-validate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { repoRoot } from '../support/build-site.ts';
import { expandOffline, iriProblems } from '../support/json-ld.ts';
import { siteDir } from '../support/site.ts';

const ORIGIN = 'https://registry.example.org';
let dist: string;
let pages: string[];

beforeAll(async () => {
  dist = siteDir();
  pages = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.html')).map((f) => f.split('\\').join('/'));
});

describe('markup', () => {
  it('has no html-validate error on any page, 404.html included (the project config: html-validate:recommended)', async () => {
    expect(pages).toContain('404.html');
    expect(pages).toContain('index.html');
    expect(pages.length).toBeGreaterThan(20);
    const config = JSON.parse(await readFile(join(repoRoot, '.htmlvalidate.json'), 'utf8')) as ConfigData;
    const validator = new HtmlValidate(config);
    const errors: string[] = [];
    for (const page of pages) {
      const report = await validator.validateString(await readFile(join(dist, page), 'utf8'), page);
      for (const r of report.results) for (const m of r.messages) errors.push(`${page}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
    }
    expect(errors).toEqual([]);
  });

  it('finds the errors it is meant to find (the validator is live)', async () => {
    const validator = new HtmlValidate(JSON.parse(await readFile(join(repoRoot, '.htmlvalidate.json'), 'utf8')) as ConfigData);
    const report = await validator.validateString('<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><ul class="tags" aria-label="Tags"><li>a</li></ul></body></html>');
    expect(report.results.flatMap((r) => r.messages.map((m) => m.ruleId))).toContain('aria-label-misuse');
  });
});

describe('JSON-LD of every record page', () => {
  it('expands offline with the jsonld library to schema.org IRIs, with sha256 on media objects only', async () => {
    const records = pages.filter((p) => /^objects\/[^/]+\/versions\/[^/]+\/index\.html$/.test(p));
    expect(records.length).toBeGreaterThanOrEqual(7);
    for (const page of records) {
      const html = await readFile(join(dist, page), 'utf8');
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<string, unknown>;
      const expanded = await expandOffline(ld);
      expect(iriProblems(expanded), page).toEqual([]);
      const license = (expanded[0] as Record<string, unknown>)['https://schema.org/license'] as Array<Record<string, unknown>> | undefined;
      if (typeof ld.license === 'string') expect(license, page).toEqual([{ '@id': ld.license }]);
    }
  });
});

describe('sitemap and feeds', () => {
  it('dates every record page no earlier than its publication', async () => {
    const xml = await readFile(join(dist, 'sitemap-0.xml'), 'utf8');
    const entries = [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map((m) => ({ loc: m[1]!, lastmod: m[2]! }));
    expect(entries.length).toBe([...xml.matchAll(/<url>/g)].length);
    const records = entries.filter((e) => /\/versions\/[^/]+\/$/.test(e.loc));
    expect(records.length).toBeGreaterThanOrEqual(7);
    for (const e of records) {
      const dir = e.loc.slice(ORIGIN.length + 1, -1);
      const pub = JSON.parse(await readFile(join(repoRoot, 'registry', dir, 'publication.json'), 'utf8')) as PublicationRecord;
      expect(Date.parse(e.lastmod), e.loc).toBeGreaterThanOrEqual(Date.parse(pub.publishedAt));
    }
    expect(xml).not.toContain('404');
  });

  it('publishes an Atom feed and a JSON Feed of publications and the retraction, both read by a feed parser', async () => {
    const atom = parseAtomFeed(await readFile(join(dist, 'feed.xml'), 'utf8'));
    const json = parseJsonFeed(JSON.parse(await readFile(join(dist, 'feed.json'), 'utf8')));
    const items = json.items ?? [];
    expect(atom.entries!.length).toBe(items.length);
    const titles = items.map((i) => i.title);
    expect(titles).toContain('Retracted Copper lantern 1.0.0');
    expect(titles.filter((t) => t?.startsWith('Published ')).length).toBeGreaterThanOrEqual(8);
    for (const item of items) expect(item.url).toMatch(new RegExp(`^${ORIGIN}/objects/[^/]+/versions/[^/]+/$`));
    const index = await readFile(join(dist, 'index.html'), 'utf8');
    expect(index).toContain('<link rel="alternate" href="/feed.xml" type="application/atom+xml"');
    expect(index).toContain('<link rel="alternate" href="/feed.json" type="application/feed+json"');
  });
});

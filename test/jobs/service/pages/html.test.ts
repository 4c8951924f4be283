import { describe, expect, it } from 'vitest';
import { escapeHtml, page } from '../../../../src/jobs/service/pages/html.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
    expect(escapeHtml('plain text, é')).toBe('plain text, é');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});

describe('page', () => {
  it('is a whole document with the escaped title, the body as given and one module script per path', () => {
    const html = page('Jobs <1>', '<h1>Hi</h1>', ['/assets/a.js', '/assets/b.js?x="1"']);
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<title>Jobs &lt;1&gt; · ASO reference job service</title>');
    expect(html).toContain('<main>\n<h1>Hi</h1>\n</main>');
    expect(html.match(/<script type="module" src="[^"]*"><\/script>/g)).toEqual([
      '<script type="module" src="/assets/a.js"></script>',
      '<script type="module" src="/assets/b.js?x=&quot;1&quot;"></script>',
    ]);
    expect(page('x', '')).not.toContain('<script');
  });
});

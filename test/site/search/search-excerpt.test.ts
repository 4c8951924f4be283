/** The excerpt of a search result: plain text parts around the matched words, the page's text as it is. */
import { describe, expect, it } from 'vitest';
import { excerptParts } from '../../../src/site/search/search-excerpt.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('excerptParts', () => {
  it('marks the matched words and keeps every other character as text, markup and entities included', () => {
    const content = 'Vase <img src=x onerror=alert(1)> &lt;b&gt; "><script>';
    expect(excerptParts(content, [1, 3])).toEqual([
      { text: 'Vase ', mark: false },
      { text: '<img', mark: true },
      { text: ' src=x ', mark: false },
      { text: 'onerror=alert(1)>', mark: true },
      { text: ' &lt;b&gt; "><script>', mark: false },
    ]);
    expect(excerptParts(content, []).map((p) => p.text).join('')).toBe(content);
  });

  it('shows a window of the text around the most matched words, with … where the text goes on', () => {
    const parts = excerptParts(words(100), [50, 52, 90], 10);
    expect(parts.map((p) => (p.mark ? `[${p.text}]` : p.text)).join('')).toBe('… w45 w46 w47 w48 w49 [w50] w51 [w52] w53 w54 …');
    expect(excerptParts(words(100), [], 3)).toEqual([{ text: 'w0 w1 w2 …', mark: false }]);
    expect(excerptParts(words(100), [99], 3).map((p) => p.text).join('')).toBe('… w97 w98 w99');
  });

  it('counts words as Pagefind does (leading whitespace makes an empty first word), and ignores places past the text', () => {
    expect(excerptParts('  a\n\tb   c', [1, 2, 7])).toEqual([
      { text: 'a', mark: true },
      { text: ' ', mark: false },
      { text: 'b', mark: true },
      { text: ' c', mark: false },
    ]);
    expect(excerptParts('', [0])).toEqual([]);
  });
});

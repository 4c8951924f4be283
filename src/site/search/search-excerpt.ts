/**
 * The excerpt of a search result as plain text parts, the words that matched marked: made from the page text Pagefind
 * returns (`content`) and the places of the matched words (`locations`), so that the search box can show it with text
 * nodes only. Pagefind's own `excerpt` is HTML in which only `<` and `>` are escaped: a literal `&lt;` in a name reads
 * back as `<`, and markup in it would be parsed. Runs in the browser.
 */

/** Words an excerpt shows, at most: Pagefind's default. */
const EXCERPT_WORDS = 30;

/** Words of context kept before the first matched word of an excerpt. */
const LEAD_WORDS = 5;

/** What splits words: Pagefind's locations count words split at whitespace (the index is built in English, unsegmented). */
const WORD_SEPARATORS = /[^\S\uFEFF]+/;

/** A run of excerpt text, marked when it is a matched word. */
export interface ExcerptPart {
  text: string;
  mark: boolean;
}

/**
 * Up to `length` words of `content` around the matched words at `locations` (indices of words), as parts to show as
 * text: the window that holds the most matched words, starting a few words before the first of them, with `…` where
 * the text goes on.
 */
export function excerptParts(content: string, locations: readonly number[], length = EXCERPT_WORDS): ExcerptPart[] {
  const words = content.trim() ? content.split(WORD_SEPARATORS) : [];
  const matched = new Set(locations.filter((at) => at >= 0 && at < words.length));
  const start = windowStart(words.length, [...matched], length);
  const end = Math.min(words.length, start + length);
  const parts: ExcerptPart[] = [];
  const plain = (text: string): void => {
    const last = parts.at(-1);
    if (last && !last.mark) last.text += text;
    else parts.push({ text, mark: false });
  };
  if (start > 0) plain('…');
  for (let at = start; at < end; at++) {
    const word = words[at]!;
    if (!word) continue; // text that starts with whitespace splits into an empty first word
    if (parts.length) plain(' ');
    if (matched.has(at)) parts.push({ text: word, mark: true });
    else plain(word);
  }
  if (end < words.length) plain(' …');
  return parts;
}

/** The first word of the window of `length` words that holds the most matched words (the earliest such window). */
function windowStart(count: number, matched: readonly number[], length: number): number {
  if (count <= length || matched.length === 0) return 0;
  const lead = Math.min(LEAD_WORDS, length - 1);
  let best = 0;
  let most = -1;
  for (const at of [...matched].sort((a, b) => a - b)) {
    const start = Math.max(0, Math.min(at - lead, count - length));
    const held = matched.filter((m) => m >= start && m < start + length).length;
    if (held > most) [best, most] = [start, held];
  }
  return best;
}

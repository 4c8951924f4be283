/**
 * What Pagefind is handed for a record page: the page's `<html>` tag, the elements marked `data-pagefind-body`, whole,
 * and the image Pagefind shows beside a result (by default the first `<img>` after the page's first `<h1>`), in page
 * order, and nothing else. Pagefind indexes only the marked elements of a site that marks any, so its index of this
 * document is the index of the page (`test/site/search-document.test.ts` indexes both and compares the files), while
 * it parses a fraction of the bytes: the head, the viewer and the page's scripts are left out.
 */

/** The attribute that marks an element for Pagefind's index. */
const MARKER = 'data-pagefind-body';

/** The opening tag of an element marked for Pagefind's index, matched only where it starts (at a `<` found by `markedTag`). */
const BODY_TAG = /<([a-z][a-z0-9-]*)\b[^>]*?\sdata-pagefind-body(?=[\s/>=])[^>]*>/y;

/** Reads UTF-8 bytes back as text. */
const utf8 = new TextDecoder();

/**
 * The document Pagefind indexes for a page, given as its text or as its UTF-8 bytes; the page itself (as text) when it
 * marks no element (Pagefind then reads it all). Bytes are searched through their Latin-1 reading, one character per
 * byte: every delimiter looked for is ASCII, which no byte of a multi-byte UTF-8 sequence is, so the indices found are
 * byte offsets, and only the parts kept are decoded.
 */
export function searchDocument(page: string | Uint8Array): string {
  const html = typeof page === 'string' ? page : Buffer.from(page.buffer, page.byteOffset, page.byteLength).toString('latin1');
  const text = (at: number, end: number): string => (typeof page === 'string' ? page.slice(at, end) : utf8.decode(page.subarray(at, end)));
  const whole = (): string => text(0, html.length);
  const parts: Array<{ at: number; end: number }> = [];
  for (let match = markedTag(html, 0); match; ) {
    const end = closingEnd(html, match[1]!, match.index + match[0].length);
    if (end < 0) return whole(); // not markup this module can cut: Pagefind gets the page as it is
    parts.push({ at: match.index, end });
    match = markedTag(html, end);
  }
  if (!parts.length) return whole();
  const image = resultImage(html);
  if (image && !parts.some((p) => p.at <= image.at && image.at < p.end)) parts.push(image);
  parts.sort((a, b) => a.at - b.at);
  const open = /<html\b[^>]*>/i.exec(html);
  const openTag = open ? text(open.index, open.index + open[0].length) : '<html>';
  return `<!DOCTYPE html>${openTag}<head><meta charset="utf-8"></head><body>${parts.map((p) => text(p.at, p.end)).join(' ')}</body></html>`;
}

/**
 * The first opening tag at or after `from` that marks its element for the index, as `BODY_TAG` would find it scanning
 * from `from`. The scan starts from each occurrence of the marker's name (a plain string search, far cheaper than trying
 * the pattern at every `<` of a page) and tries the pattern at the `<`s before it that no `>` separates from it, the
 * earliest first: those are the only places a tag holding that occurrence can start.
 */
function markedTag(html: string, from: number): RegExpExecArray | null {
  for (let at = html.indexOf(MARKER, from); at >= 0; at = html.indexOf(MARKER, at + 1)) {
    const match = tagFrom(html, '<', BODY_TAG, Math.max(from, html.lastIndexOf('>', at) + 1), at);
    if (match) return match;
  }
  return null;
}

/** The start of an `<h1>` tag, and a whole `<img>` tag (sticky: matched where they start). */
const H1_TAG = /<h1[\s>]/y;
const IMG_TAG = /<img\b[^>]*>/y;

/**
 * The first match of `tag`, a sticky pattern that begins with `prefix`, starting at or after `from` and before `before`:
 * tried only where `prefix` is.
 */
function tagFrom(html: string, prefix: string, tag: RegExp, from: number, before = html.length): RegExpExecArray | null {
  for (let at = html.indexOf(prefix, from); at >= 0 && at < before; at = html.indexOf(prefix, at + 1)) {
    tag.lastIndex = at;
    const match = tag.exec(html);
    if (match) return match;
  }
  return null;
}

/** Where the first `<img>` after the first `<h1>` is (the image of Pagefind's result), or undefined. */
function resultImage(html: string): { at: number; end: number } | undefined {
  const h1 = tagFrom(html, '<h1', H1_TAG, 0);
  const match = h1 && tagFrom(html, '<img', IMG_TAG, h1.index);
  return match ? { at: match.index, end: match.index + match[0].length } : undefined;
}

/** Where the element `tag` whose content starts at `from` ends (after its closing tag), or -1 when it does not close. */
function closingEnd(html: string, tag: string, from: number): number {
  const tags = new RegExp(`<(/?)${tag}(?=[\\s/>])[^>]*>`, 'g');
  tags.lastIndex = from;
  let depth = 1;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    if (match[1]) depth -= 1;
    else if (!match[0].endsWith('/>')) depth += 1;
    if (depth === 0) return match.index + match[0].length;
  }
  return -1;
}

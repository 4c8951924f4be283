/**
 * One object of the search results, drawn with text nodes only: its picture (the thumbnail the index names, when it is
 * a file of this site) or the icon of its kind, its name linked to the version shown, that version (a prerelease or
 * retraction marked), a line of description (or the excerpt around the matched words), its kind and licence. Every
 * string comes from the index, that is from a registry: nothing of it is parsed as HTML. Runs in the browser.
 */
import { excerptParts } from './search-excerpt.ts';
import type { ObjectResult } from './search-objects.ts';

/** The drawn icons of the kinds, by kind (`file` for any other), cloned from the page's template. */
export type KindIcons = (kind: string) => Element | null;

/** The list item of one object. */
export function resultItem(result: ObjectResult, icons: KindIcons): HTMLLIElement {
  const { shown, matching } = result;
  const meta = shown.meta;
  const item = element('li', 'search-result');
  const picture = element('div', 'search-result-picture');
  picture.setAttribute('aria-hidden', 'true');
  const image = meta.image === undefined ? undefined : sameSiteHref(meta.image);
  if (image) {
    const img = element('img', 'search-result-image');
    img.alt = '';
    img.loading = 'lazy';
    img.decoding = 'async';
    img.src = image;
    picture.append(img);
  } else {
    const icon = icons(meta.kind ?? 'file') ?? icons('file');
    if (icon) picture.append(icon);
  }
  const text = element('div', 'search-result-text');
  const title = element('p', 'search-result-title');
  const name = meta.name || meta.title || shown.url;
  const href = sameSiteHref(shown.url);
  if (href) {
    const link = element('a', 'search-result-link', name);
    link.href = href;
    title.append(link);
  } else title.append(element('span', 'search-result-name', name));
  if (meta.version) title.append(' ', element('span', 'search-result-version', meta.version));
  if (meta.prerelease === 'true') title.append(' ', element('span', 'badge warn', 'Prerelease'));
  if (meta.retracted === 'true') title.append(' ', element('span', 'badge bad', 'Retracted'));
  const line = element('p', 'search-result-description');
  if (meta.description) line.textContent = meta.description;
  else for (const p of excerptParts(shown.content, shown.locations)) line.append(p.mark ? element('mark', '', p.text) : document.createTextNode(p.text));
  const facts = element('p', 'search-result-facts');
  const parts = [meta.kind_label ?? meta.kind, meta.license, matching > 1 ? `${matching} matching versions` : undefined].filter((p): p is string => !!p);
  facts.textContent = parts.join(' · ');
  text.append(title, line, facts);
  item.append(picture, text);
  return item;
}

/** `url` as a path of this site (path, query and fragment), or undefined when it leads anywhere else or is not http(s). */
function sameSiteHref(url: string): string | undefined {
  try {
    const parsed = new URL(url, location.href);
    return parsed.origin === location.origin && /^https?:$/.test(parsed.protocol) ? `${parsed.pathname}${parsed.search}${parsed.hash}` : undefined;
  } catch {
    return undefined;
  }
}

/** A new element with a class and, when given, its text. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

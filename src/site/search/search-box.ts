/**
 * The catalog's search box, in the browser: Pagefind's search API (`pagefind.js`, from the site's own `pagefind/`) over
 * the index shards it merges, with results and filters drawn from text nodes only. Names, descriptions, tags and types
 * are whatever a registry holds, so nothing read from the index is ever parsed as HTML: Pagefind's own UI writes filter
 * values and excerpts into the page as HTML.
 */
import { excerptParts } from './search-excerpt.ts';

/** The parts of Pagefind's browser API the box uses. */
interface Pagefind {
  options(options: { baseUrl?: string }): Promise<void>;
  mergeIndex(bundlePath: string): Promise<void>;
  filters(): Promise<FilterCounts>;
  debouncedSearch(term: string | null, options: { filters: Record<string, string[]> }, timeoutMs: number): Promise<SearchResponse | null>;
}

/** Values of each filter, with the number of pages that have them. */
type FilterCounts = Record<string, Record<string, number>>;

interface SearchResponse {
  results: Array<{ data(): Promise<ResultData> }>;
  filters: FilterCounts;
}

/** What Pagefind returns for one page: its URL, text, the places of the matched words, and its title. */
interface ResultData {
  url: string;
  content: string;
  locations: number[];
  meta: Record<string, string | undefined>;
}

/** Results shown at once, and after each "More results". */
const PAGE_SIZE = 10;

/** How long typing pauses before a search runs. */
const DEBOUNCE_MS = 150;

/** How the filters Pagefind knows by their record-page names are headed. */
const FILTER_HEADINGS: Record<string, string> = { tag: 'Tags', type: 'Types' };

/** One checkbox of a filter value, and where its count is written. */
interface FilterBox {
  filter: string;
  value: string;
  input: HTMLInputElement;
  count: HTMLElement;
}

/** Starts every search box of the page (`[data-search]`). */
export function startSearchBoxes(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-search]')) startSearchBox(root);
}

/** Pagefind with the index shards merged, and the filter checkboxes drawn from it. */
interface LoadedIndex {
  pagefind: Pagefind;
  boxes: FilterBox[];
}

/** Imports Pagefind from the box's bundle, merges the other shards and draws the filters into `panel`. */
async function loadIndex(root: HTMLElement, panel: HTMLElement): Promise<LoadedIndex> {
  const pagefind = (await import(/* @vite-ignore */ `${root.dataset.bundle}pagefind.js`)) as Pagefind;
  await pagefind.options({ baseUrl: root.dataset.base ?? '/' });
  for (const bundlePath of JSON.parse(root.dataset.merge ?? '[]') as string[]) await pagefind.mergeIndex(bundlePath);
  return { pagefind, boxes: filterBoxes(panel, await pagefind.filters()) };
}

/** Shows the box in `root` and searches as its input changes; Pagefind loads when the box is first used. */
function startSearchBox(root: HTMLElement): void {
  const input = part<HTMLInputElement>(root, '.search-input');
  const filtersPanel = part(root, '.search-filters');
  const message = part(root, '.search-message');
  const list = part(root, '.search-results');
  const more = part<HTMLButtonElement>(root, '.search-more');
  let loading: Promise<LoadedIndex> | undefined;
  const load = (): Promise<LoadedIndex> =>
    (loading ??= loadIndex(root, filtersPanel).catch((error: unknown) => {
      loading = undefined; // the next search tries again
      throw error;
    }));

  let generation = 0;
  let results: SearchResponse['results'] = [];
  let shown = 0;

  /** Lists the next page of results, unless a newer search has started meanwhile. */
  const showMore = async (search: number): Promise<void> => {
    const next = results.slice(shown, shown + PAGE_SIZE);
    more.disabled = true;
    const data = await Promise.all(next.map((r) => r.data()));
    if (search !== generation) return;
    list.append(...data.map(resultItem));
    shown += next.length;
    more.disabled = false;
    more.hidden = shown >= results.length;
  };

  const run = async (): Promise<void> => {
    const search = ++generation;
    let index: LoadedIndex;
    try {
      index = await load();
    } catch (error) {
      if (search === generation) message.textContent = `Search could not start: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    const { pagefind, boxes } = index;
    const term = input.value.trim();
    const filters: Record<string, string[]> = {};
    for (const box of boxes) if (box.input.checked) (filters[box.filter] ??= []).push(box.value);
    if (!term && Object.keys(filters).length === 0) {
      if (search !== generation) return;
      list.replaceChildren();
      message.textContent = '';
      filtersPanel.hidden = true;
      more.hidden = true;
      return;
    }
    const found = await pagefind.debouncedSearch(term || null, { filters }, DEBOUNCE_MS);
    if (!found || search !== generation) return;
    results = found.results;
    shown = 0;
    list.replaceChildren();
    const n = results.length;
    message.textContent = `${n === 0 ? 'No' : n} result${n === 1 ? '' : 's'}${term ? ` for “${term}”` : ''}`;
    for (const box of boxes) box.count.textContent = `(${found.filters[box.filter]?.[box.value] ?? 0})`;
    filtersPanel.hidden = boxes.length === 0;
    await showMore(search);
  };

  // Pagefind and the index load on first focus, not with the page: most visitors of a catalog page do not search.
  input.addEventListener('focus', () => void load().catch(() => undefined), { once: true });
  input.addEventListener('input', () => void run());
  filtersPanel.addEventListener('change', () => void run());
  more.addEventListener('click', () => void showMore(generation));
  root.hidden = false;
  if (input.value.trim()) void run();
}

/** The element of the box that `selector` names. */
function part<T extends HTMLElement = HTMLElement>(root: HTMLElement, selector: string): T {
  const element = root.querySelector<T>(selector);
  if (!element) throw new Error(`the search box has no ${selector}`);
  return element;
}

/** A group of checkboxes for each filter in `counts`, its values in alphabetical order, written into `panel`. */
function filterBoxes(panel: HTMLElement, counts: FilterCounts): FilterBox[] {
  const boxes: FilterBox[] = [];
  const groups = Object.keys(counts).sort().map((filter, f) => {
    const details = element('details', 'search-filter');
    const summary = element('summary', 'search-filter-name', FILTER_HEADINGS[filter] ?? filter);
    const values = element('div', 'search-filter-values');
    const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
    Object.keys(counts[filter]!).sort(collator.compare).forEach((value, v) => {
      const input = element('input', 'search-filter-checkbox');
      input.type = 'checkbox';
      input.id = `search-filter-${f}-${v}`;
      const label = element('label', 'search-filter-label');
      label.htmlFor = input.id;
      const count = element('span', 'search-filter-count');
      label.append(document.createTextNode(value), ' ', count);
      const row = element('div', 'search-filter-value');
      row.append(input, label);
      values.append(row);
      boxes.push({ filter, value, input, count });
    });
    details.append(summary, values);
    return details;
  });
  panel.replaceChildren(...groups);
  return boxes;
}

/** One result: its title linked to its page (when the URL is a page of this site), and its excerpt. */
function resultItem(data: ResultData): HTMLLIElement {
  const item = element('li', 'search-result');
  const title = element('p', 'search-result-title');
  const text = data.meta.title || data.url;
  const href = pageHref(data.url);
  if (href) {
    const link = element('a', 'search-result-link', text);
    link.href = href;
    title.append(link);
  } else title.textContent = text;
  const excerpt = element('p', 'search-result-excerpt');
  for (const p of excerptParts(data.content, data.locations)) excerpt.append(p.mark ? element('mark', '', p.text) : document.createTextNode(p.text));
  item.append(title, excerpt);
  return item;
}

/** `url` as a link to a page of this site (path, query and fragment), or undefined when it leads anywhere else. */
function pageHref(url: string): string | undefined {
  try {
    const parsed = new URL(url, location.href);
    return parsed.origin === location.origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : undefined;
  } catch {
    return undefined;
  }
}

/** A new element with a class and, when given, its text. */
function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

/**
 * The catalog's search box, in the browser: Pagefind's search API (`pagefind.js`, from the site's own `pagefind/`) over
 * the index shards it merges, one result per object (search-objects.ts), sorted by relevance, newest or name, narrowed
 * by the filters, and drawn from text nodes only (search-result-view.ts). Names, descriptions, tags and types are
 * whatever a registry holds, so nothing read from the index is ever parsed as HTML: Pagefind's own UI writes filter
 * values and excerpts into the page as HTML. While a search is shown, the listing the box names (`data-hides`) is hidden.
 */
import { ObjectResults, type VersionHit } from './search-objects.ts';
import { element, resultItem, type KindIcons } from './search-result-view.ts';

/** The parts of Pagefind's browser API the box uses. */
interface Pagefind {
  options(options: { baseUrl?: string }): Promise<void>;
  mergeIndex(bundlePath: string): Promise<void>;
  filters(): Promise<FilterCounts>;
  search(term: string | null, options: SearchOptions): Promise<SearchResponse>;
  debouncedSearch(term: string | null, options: SearchOptions, timeoutMs: number): Promise<SearchResponse | null>;
}

interface SearchOptions {
  filters: Record<string, string[]>;
  sort?: Record<string, 'asc' | 'desc'>;
}

/** Values of each filter, with the number of pages that have them. */
type FilterCounts = Record<string, Record<string, number>>;

interface SearchResponse {
  results: Array<{ data(): Promise<VersionHit> }>;
  filters: FilterCounts;
}

/** Objects shown at once, and after each "More results". */
const PAGE_SIZE = 10;

/** How long typing pauses before a search runs. */
const DEBOUNCE_MS = 150;

/** The filters offered, in this order, and how they are headed (the record pages and SearchMeta.astro name them). */
const FILTERS: ReadonlyArray<[string, string]> = [
  ['type', 'Types'],
  ['license', 'Licenses'],
  ['tag', 'Tags'],
];

/** The orders offered besides relevance, as Pagefind sorts (keys of SearchMeta.astro's `data-pagefind-sort`). */
const SORTS: Record<string, Record<string, 'asc' | 'desc'>> = { newest: { created: 'desc' }, name: { name: 'asc' } };

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

/** Shows the box in `root` and searches as its input, order or filters change; Pagefind loads when the box is first used. */
function startSearchBox(root: HTMLElement): void {
  const input = part<HTMLInputElement>(root, '.search-input');
  const sort = part<HTMLSelectElement>(root, '.search-sort');
  const body = part(root, '.search-body');
  const filtersPanel = part(root, '.search-filters');
  const message = part(root, '.search-message');
  const list = part(root, '.search-results');
  const more = part<HTMLButtonElement>(root, '.search-more');
  const hides = root.dataset.hides ? document.getElementById(root.dataset.hides) : null;
  const icons = kindIcons(root);
  let loading: Promise<LoadedIndex> | undefined;
  const load = (): Promise<LoadedIndex> =>
    (loading ??= loadIndex(root, filtersPanel).catch((error: unknown) => {
      loading = undefined; // the next search tries again
      throw error;
    }));

  let generation = 0;
  let objects: ObjectResults | undefined;

  /** Shows the results in place of the listing, or the listing again. */
  const showResults = (shown: boolean): void => {
    body.hidden = !shown;
    if (hides) hides.hidden = shown;
  };

  /** Lists the next objects, unless a newer search has started meanwhile. */
  const showMore = async (search: number): Promise<void> => {
    if (!objects) return;
    more.disabled = true;
    const next = await objects.next(PAGE_SIZE);
    if (search !== generation) return;
    list.append(...next.map((r) => resultItem(r, icons)));
    more.disabled = false;
    more.hidden = !objects.hasMore;
  };

  const run = async (): Promise<void> => {
    const search = ++generation;
    const term = input.value.trim();
    rememberQuery(term, sort.value);
    if (!term && !filtersPanel.querySelector('input:checked')) {
      objects = undefined;
      list.replaceChildren();
      message.textContent = '';
      more.hidden = true;
      showResults(false);
      return;
    }
    // At once, while the input that asked is still the reason for the change of layout.
    showResults(true);
    let index: LoadedIndex;
    try {
      index = await load();
    } catch (error) {
      if (search === generation) message.textContent = `Search could not start: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    const { pagefind, boxes } = index;
    const filters: Record<string, string[]> = {};
    for (const box of boxes) if (box.input.checked) (filters[box.filter] ??= []).push(box.value);
    const order = SORTS[sort.value];
    const options: SearchOptions = order ? { filters, sort: order } : { filters };
    const found = await pagefind.debouncedSearch(term || null, options, DEBOUNCE_MS);
    if (!found || search !== generation) return;
    const versionsOf = async (id: string): Promise<VersionHit[]> => {
      const one = await pagefind.search(term || null, { filters: { ...filters, object: [id] } });
      return Promise.all(one.results.map((r) => r.data()));
    };
    objects = new ObjectResults(found.results, found.filters.object, versionsOf);
    list.replaceChildren();
    const n = objects.total;
    message.textContent = `${n === 0 ? 'No' : n} result${n === 1 ? '' : 's'}${term ? ` for “${term}”` : ''}`;
    for (const box of boxes) box.count.textContent = `(${found.filters[box.filter]?.[box.value] ?? 0})`;
    filtersPanel.hidden = boxes.length === 0;
    await showMore(search);
  };

  // Pagefind and the index load on first focus, not with the page: most visitors of a catalog page do not search.
  input.addEventListener('focus', () => void load().catch(() => undefined), { once: true });
  input.addEventListener('input', () => void run());
  sort.addEventListener('change', () => void run());
  filtersPanel.addEventListener('change', () => void run());
  more.addEventListener('click', () => void showMore(generation));
  const asked = new URLSearchParams(location.search);
  if (asked.get('q')) input.value = asked.get('q')!;
  if (asked.get('sort') && SORTS[asked.get('sort')!]) sort.value = asked.get('sort')!;
  if (input.value.trim()) void run();
}

/** Keeps the query and order in the page's address, so that reloading or going back shows the same results. */
function rememberQuery(term: string, order: string): void {
  const url = new URL(location.href);
  if (term) url.searchParams.set('q', term);
  else url.searchParams.delete('q');
  if (term && order) url.searchParams.set('sort', order);
  else url.searchParams.delete('sort');
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}

/** The element of the box that `selector` names. */
function part<T extends HTMLElement = HTMLElement>(root: HTMLElement, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`the search box has no ${selector}`);
  return found;
}

/** The drawn icon of each kind, from the box's template (`[data-kind]` elements holding an `<svg>`). */
function kindIcons(root: HTMLElement): KindIcons {
  const template = root.querySelector<HTMLTemplateElement>('template.search-icons');
  return (kind) => {
    const holder = [...(template?.content.querySelectorAll<HTMLElement>('[data-kind]') ?? [])].find((el) => el.dataset.kind === kind);
    return holder?.firstElementChild?.cloneNode(true) as Element | null ?? null;
  };
}

/** A group of checkboxes for each filter offered that the index has, its values in alphabetical order, written into `panel`. */
function filterBoxes(panel: HTMLElement, counts: FilterCounts): FilterBox[] {
  const boxes: FilterBox[] = [];
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  const groups = FILTERS.filter(([filter]) => counts[filter]).map(([filter, heading], f) => {
    const details = element('details', 'search-filter');
    const summary = element('summary', 'search-filter-name', heading);
    const values = element('div', 'search-filter-values');
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

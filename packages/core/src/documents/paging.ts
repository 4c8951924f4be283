/** Splitting long lists (the catalog, tag pages, the JSON catalog) into numbered pages of a fixed size. Pure. */

/** Objects on one catalog or tag page: at about 1.3 KB of HTML per card this keeps a page well under 100 KB. */
export const CATALOG_PAGE_SIZE = 48;

/** Objects in one page of `api/v1/objects.json`: about 1 KB each, so a page stays far under 1 MB. */
export const API_PAGE_SIZE = 200;

/** One page of a list. */
export interface Page<T> {
  /** 1-based. */
  number: number;
  /** How many pages the list has (at least 1: an empty list has one empty page). */
  count: number;
  items: T[];
}

/** The number of pages a list of `total` items takes. */
export function pageCount(total: number, size: number): number {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`page size must be a positive integer, not ${size}`);
  return Math.max(1, Math.ceil(total / size));
}

/** Every page of `items`, in order. */
export function paginate<T>(items: readonly T[], size: number): Array<Page<T>> {
  const count = pageCount(items.length, size);
  return Array.from({ length: count }, (_, i) => ({ number: i + 1, count, items: items.slice(i * size, (i + 1) * size) }));
}

/** The site path of page `n` of a listing whose first page is at `base` (`''` for the catalog, `tags/wood/`). */
export function listingPagePath(base: string, n: number): string {
  return n <= 1 ? base : `${base}page/${n}/`;
}

/**
 * The page numbers to link from page `current` of `count`: the first, the last and `window` on either side of the
 * current one, with `null` where numbers are left out. Bounded, so that a page's links do not grow with the registry.
 */
export function pageNumbers(current: number, count: number, window = 2): Array<number | null> {
  const shown = new Set<number>([1, count]);
  for (let n = current - window; n <= current + window; n++) if (n >= 1 && n <= count) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (const [i, n] of sorted.entries()) {
    const before = sorted[i - 1];
    if (before !== undefined && n - before === 2) out.push(before + 1);
    else if (before !== undefined && n - before > 2) out.push(null);
    out.push(n);
  }
  return out;
}

/** Page `n` (1-based) of `items`; throws for a page that does not exist. */
export function pageAt<T>(items: readonly T[], size: number, n: number): Page<T> {
  const count = pageCount(items.length, size);
  if (!Number.isInteger(n) || n < 1 || n > count) throw new RangeError(`page ${n} does not exist (1-${count})`);
  return { number: n, count, items: items.slice((n - 1) * size, n * size) };
}

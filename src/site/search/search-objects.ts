/**
 * Search results by object: Pagefind finds record pages, one per version, and the search box lists objects, each once,
 * as its newest matching version. Objects come in the order of their first version in Pagefind's results (by relevance,
 * or by the sort asked for); the versions of an object that the results hold further down, or beyond what has been
 * loaded, are fetched with a search narrowed to that object (its `object` filter, SearchMeta.astro), so the version
 * shown is the newest of all that match. Runs in the browser.
 */

/** What Pagefind returns for a record page: its URL, text, matched words and the meta SearchMeta.astro gives it. */
export interface VersionHit {
  url: string;
  content: string;
  locations: number[];
  meta: Record<string, string | undefined>;
}

/** A result of a Pagefind search, whose data is loaded on demand. */
interface PagefindResult {
  data(): Promise<VersionHit>;
}

/** One object of the results: the versions that match, and the one shown (the newest that is not retracted, if any). */
export interface ObjectResult {
  id: string;
  shown: VersionHit;
  /** How many versions of the object match. */
  matching: number;
}

/** Results whose data is loaded at once while objects are gathered. */
const LOAD_AT_ONCE = 12;

/** A record page's URL: `…/objects/<id>/versions/<version>/`. */
const RECORD_URL = /\/objects\/([^/]+)\/versions\/[^/]+\/?(?:[?#].*)?$/;

/** The object a version belongs to: its `object` meta, else the id in its URL. */
export function objectOf(hit: VersionHit): string {
  return hit.meta.object ?? RECORD_URL.exec(hit.url)?.[1] ?? hit.url;
}

/**
 * The version an object is shown as: the newest (first in the version history, `order` 0) of those that match and are
 * not retracted, else the newest of all that match.
 */
export function newestMatch(hits: readonly VersionHit[]): VersionHit {
  const rank = (hit: VersionHit): number => {
    const order = Number(hit.meta.order);
    return (hit.meta.retracted === 'true' ? 1e9 : 0) + (Number.isFinite(order) ? order : 1e6);
  };
  return hits.reduce((best, hit) => (rank(hit) < rank(best) ? hit : best));
}

/**
 * The objects of one search, gathered as they are asked for. `counts` is Pagefind's count of matching pages per value of
 * the `object` filter in this search; `versionsOf` runs the same search narrowed to one object.
 */
export class ObjectResults {
  private readonly found = new Map<string, VersionHit[]>();
  private readonly order: string[] = [];
  private loaded = 0;
  private given = 0;

  constructor(
    private readonly results: readonly PagefindResult[],
    private readonly counts: Readonly<Record<string, number>> | undefined,
    private readonly versionsOf: (objectId: string) => Promise<VersionHit[]>,
  ) {}

  /** How many objects match: from the filter counts, else (an index without them) the number of pages. */
  get total(): number {
    return this.counts ? Object.values(this.counts).filter((n) => n > 0).length : this.results.length;
  }

  /** Whether objects remain to be given. */
  get hasMore(): boolean {
    return this.given < this.order.length || this.loaded < this.results.length;
  }

  /** The next `n` objects, each with its newest matching version. */
  async next(n: number): Promise<ObjectResult[]> {
    while (this.order.length < this.given + n && this.loaded < this.results.length) {
      const batch = this.results.slice(this.loaded, this.loaded + LOAD_AT_ONCE);
      this.loaded += batch.length;
      for (const hit of await Promise.all(batch.map((r) => r.data()))) this.add(hit);
    }
    const ids = this.order.slice(this.given, this.given + n);
    this.given += ids.length;
    return Promise.all(ids.map((id) => this.complete(id)));
  }

  private add(hit: VersionHit): void {
    const id = objectOf(hit);
    const hits = this.found.get(id);
    if (hits) {
      if (!hits.some((h) => h.url === hit.url)) hits.push(hit);
    } else {
      this.found.set(id, [hit]);
      this.order.push(id);
    }
  }

  /** An object with every matching version in hand: those not loaded yet are fetched by a search narrowed to it. */
  private async complete(id: string): Promise<ObjectResult> {
    const hits = this.found.get(id)!;
    const matching = this.counts?.[id] ?? hits.length;
    if (hits.length < matching) {
      for (const hit of await this.versionsOf(id)) if (objectOf(hit) === id && !hits.some((h) => h.url === hit.url)) hits.push(hit);
    }
    return { id, shown: newestMatch(hits), matching: Math.max(matching, hits.length) };
  }
}

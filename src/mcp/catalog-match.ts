/** Which catalog entries a search matches and in what order, and how a licence filter reads an SPDX id. Pure. */

/** What a search reads of a catalog entry. */
export interface CatalogEntry {
  id: string;
  name: string;
  description: string;
  tags: string[];
}

/** Points for a query word found in the id or name, in a tag, in the description. */
const WEIGHTS = { title: 3, tag: 2, description: 1 } as const;

/**
 * The entries whose id, name, tags or description hold every word of `query` (case folded) and that carry every tag of
 * `tags`, best match first (a word in the id or name counts more than in a tag, more than in the description); ties keep
 * the catalog's order. An empty query matches every entry.
 */
export function rankCatalog<T extends CatalogEntry>(entries: readonly T[], query: string, tags: readonly string[] = []): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const wanted = tags.map((t) => t.trim().toLowerCase()).filter(Boolean);
  const scored: Array<{ entry: T; score: number; order: number }> = [];
  entries.forEach((entry, order) => {
    const own = entry.tags.map((t) => t.toLowerCase());
    if (!wanted.every((t) => own.includes(t))) return;
    const title = `${entry.id} ${entry.name}`.toLowerCase();
    const description = entry.description.toLowerCase();
    let score = 0;
    for (const word of words) {
      const points = title.includes(word) ? WEIGHTS.title : own.some((t) => t.includes(word)) ? WEIGHTS.tag : description.includes(word) ? WEIGHTS.description : 0;
      if (points === 0) return;
      score += points;
    }
    scored.push({ entry, score, order });
  });
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map((s) => s.entry);
}

/** Whether `license` is `wanted`, case folded, or `wanted` with a version number (`CC0` is `CC0-1.0`; `CC-BY` is not `CC-BY-SA-4.0`, `MIT` not `MIT-0`). */
export function licenseMatches(license: string | null, wanted: string): boolean {
  if (license === null) return false;
  const have = license.toLowerCase();
  const want = wanted.trim().toLowerCase();
  return want !== '' && (have === want || (have.startsWith(`${want}-`) && /^\d+\.\d/.test(have.slice(want.length + 1))));
}

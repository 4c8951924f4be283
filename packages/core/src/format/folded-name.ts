/**
 * Names compared as a case-insensitive file system or host compares them (macOS, Windows, some object stores): two
 * names with one folded form are one file there, so the registry never holds both. Pure.
 */

/** The form two names share when such a system takes them for one: Unicode-composed, then case-folded (`ß` and `SS` alike). */
export function foldedName(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase();
}

/** For each name whose folded form an earlier name of `names` has, that earlier name; in the order given. */
export function caseCollisions(names: readonly string[]): Array<{ name: string; first: string }> {
  const seen = new Map<string, string>();
  const out: Array<{ name: string; first: string }> = [];
  for (const name of names) {
    const key = foldedName(name);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, name);
    else out.push({ name, first });
  }
  return out;
}

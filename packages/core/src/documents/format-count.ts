/** One formatter for every call: `toLocaleString` with options builds a new one each time, which a build of thousands of pages feels. */
const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A byte count with thousands separators: `1,234,567`. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

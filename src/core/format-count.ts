/** A byte count with thousands separators: `1,234,567`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

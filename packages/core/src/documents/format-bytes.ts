/** A byte count for people: `512 B`, `4.5 KB`, `55.7 KB`, `1.2 MB` (units of 1,000 bytes, as npm and Finder print them). Pure. */
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** One formatter per precision, made once: a build prints thousands of sizes. */
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `n` bytes in the largest unit that keeps the number at least 1, with one decimal below 100 and none above. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return `${n} B`;
  if (n < 1000) return `${WHOLE.format(n)} B`;
  let unit = 0;
  let value = n;
  while (unit < UNITS.length - 1 && roundedFor(value) >= 1000) {
    value /= 1000;
    unit++;
  }
  return `${(value < 100 ? ONE_DECIMAL : WHOLE).format(value)} ${UNITS[unit]}`;
}

/** The value as it would print in its unit: 999.96 prints as 1,000, which belongs to the next unit. */
function roundedFor(value: number): number {
  return value < 100 ? Math.round(value * 10) / 10 : Math.round(value);
}

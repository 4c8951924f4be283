/**
 * Dates for people, the same on every machine: `10 Sep 2025` and `10 Sep 2025, 07:45 UTC`, in UTC (a page is built
 * once for readers in every zone; the exact instant stays in `<time datetime>`). Pure.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const two = (n: number): string => String(n).padStart(2, '0');

/** The instant of an RFC 3339 timestamp, or NaN (also for the loose forms `Date.parse` would accept, such as `1`). */
const instant = (iso: string): number => (/^\d{4}-\d{2}-\d{2}([Tt ]|$)/.test(iso) ? Date.parse(iso) : NaN);

/** The day of an RFC 3339 timestamp: `10 Sep 2025`; the text itself when it is not a date. */
export function formatDate(iso: string): string {
  const t = instant(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The day and minute of an RFC 3339 timestamp: `10 Sep 2025, 07:45 UTC`; the text itself when it is not a date. */
export function formatDateTime(iso: string): string {
  const t = instant(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t);
  return `${formatDate(iso)}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/**
 * The JSON Schema formats the registry's schemas use, `date-time` and `uri`, with the rules of ajv-formats' full mode:
 * an RFC 3339 date-time that names a real day and time (a leap second only at 23:59 UTC), its offset required, and an
 * absolute RFC 3986 URI.
 */

/** True when a string is of the format. */
export type FormatCheck = (value: string) => boolean;

const DATE = /^(\d{4})-(\d\d)-(\d\d)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(?:z|([+-])(\d\d)(?::?(\d\d))?)$/i;

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

function isTime(text: string): boolean {
  const m = TIME.exec(text);
  if (!m) return false;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const sign = m[4] === '-' ? -1 : 1;
  const [offsetHour, offsetMinute] = [Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (offsetHour > 23 || offsetMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second: 23:59:60 in UTC, wherever the offset puts it.
  const utcMinute = minute - offsetMinute * sign;
  const utcHour = hour - offsetHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/** `date-time`: `<date>T<time>` (or a space for the T), the offset or Z required. */
export function isDateTimeFormat(value: string): boolean {
  const parts = value.split(/t|\s/i);
  return parts.length === 2 && isDate(parts[0]!) && isTime(parts[1]!);
}

const PCHAR = "(?:[\\w\\-.~!$&'()*+,;=:@]|%[0-9a-f]{2})";
const AUTHORITY = "(?:(?:[\\w\\-.~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[([^\\]]*)\\]|(?:[\\w\\-.~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?";
const PATH = `(?:\\/?\\/${AUTHORITY}(?:\\/${PCHAR}*)*|\\/(?:${PCHAR}+(?:\\/${PCHAR}*)*)?|${PCHAR}+(?:\\/${PCHAR}*)*)`;
const URI = new RegExp(`^[a-z][a-z0-9+\\-.]*:${PATH}(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`, 'i');
const OCTET = '(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)';
const ENDS_IN_IPV4 = new RegExp(`^(.*:)${OCTET}(?:\\.${OCTET}){3}$`);

/** The inside of `[...]` in a URI's host: an IPv6 address (its last 32 bits may be dotted IPv4) or an IPvFuture. */
function isIpLiteral(text: string): boolean {
  if (/^v[0-9a-f]+\.[\w\-.~!$&'()*+,;=:]+$/i.test(text)) return true;
  const v4 = ENDS_IN_IPV4.exec(text);
  const halves = (v4 ? `${v4[1]}0:0` : text).split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) && (halves.length === 2 ? groups.length <= 7 : groups.length === 8);
}

/** `uri`: an absolute URI (a scheme, then a path that is not empty), every character allowed where it stands. */
export function isUriFormat(value: string): boolean {
  const m = /[/:]/.test(value) ? URI.exec(value) : null;
  return m !== null && (m[1] === undefined || isIpLiteral(m[1]));
}

/** Every format the schemas may name. */
export const SCHEMA_FORMATS: Readonly<Record<string, FormatCheck>> = { 'date-time': isDateTimeFormat, uri: isUriFormat };

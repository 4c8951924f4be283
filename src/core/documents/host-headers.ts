/**
 * How a host serves the site: CORS on everything (every path is public, and the SDK, agents and other origins read the
 * JSON, the bytes and the ledger), long immutable caching for what never changes, short revalidation for what grows,
 * and the content types of `content-types.ts`. The build writes it as `_headers` (Netlify, Cloudflare Pages); the
 * preview server applies the same rules. Pure.
 */
import { CONTENT_TYPES, NAMED_CONTENT_TYPES } from '../format/content-types.ts';
import { CHECKPOINT_PATH } from '../log/checkpoint.ts';
import { LEDGER_FILE } from '../log/ledger.ts';
import { RETRACTIONS_FILE } from '../log/retractions.ts';

/** Headers for the paths that match `pattern` (`*` matches any characters, `/` included). */
export interface HeaderRule {
  pattern: string;
  headers: Record<string, string>;
  /** A comment written above the rule in `_headers`. */
  note?: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = (seconds: number): string => `public, max-age=${seconds}, must-revalidate`;

/** The site's rules. No header is set by two rules that can match the same path (hosts join such values). */
export function hostHeaderRules(): HeaderRule[] {
  return [
    { pattern: '/*', headers: { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' }, note: 'Every path is public: any origin may read it.' },
    { pattern: '/objects/*/versions/*/aso.object.json', headers: { 'Cache-Control': IMMUTABLE }, note: 'A published manifest and its bytes never change.' },
    { pattern: '/objects/*/versions/*/representations/*', headers: { 'Cache-Control': IMMUTABLE } },
    { pattern: '/thumbnails/*', headers: { 'Cache-Control': IMMUTABLE }, note: 'Thumbnails are named by their content.' },
    { pattern: '/objects/*/versions/*/agent.json', headers: { 'Cache-Control': REVALIDATE(300) }, note: 'These list newer versions as they appear.' },
    { pattern: '/api/*', headers: { 'Cache-Control': REVALIDATE(300) } },
    { pattern: `/${LEDGER_FILE}`, headers: { 'Cache-Control': REVALIDATE(60) }, note: 'The ledger and the retractions only grow.' },
    { pattern: `/${RETRACTIONS_FILE}`, headers: { 'Cache-Control': REVALIDATE(60) } },
    { pattern: `/${CHECKPOINT_PATH}`, headers: { 'Cache-Control': REVALIDATE(60) }, note: 'The log grows: its checkpoint is revalidated.' },
    ...Object.entries(NAMED_CONTENT_TYPES).map(([name, type]) => ({ pattern: `/${name}`, headers: { 'Content-Type': type } })),
    ...CONTENT_TYPES.filter((e) => !e.nginxKnows).map((e, i) => ({
      pattern: `/*.${e.ext}`,
      headers: { 'Content-Type': e.type },
      ...(i === 0 ? { note: 'Extensions that hosts do not all know.' } : {}),
    })),
  ];
}

/** The text of `_headers`. */
export function headersFile(rules: readonly HeaderRule[] = hostHeaderRules()): string {
  const head = ['# Written by the build from src/core/documents/host-headers.ts; read by hosts that support _headers files (Netlify, Cloudflare Pages).'];
  const blocks = rules.map((r) => [...(r.note ? [`# ${r.note}`] : []), r.pattern, ...Object.entries(r.headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n'));
  return `${[head.join('\n'), ...blocks].join('\n\n')}\n`;
}

function matcher(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/** The headers of every rule that matches a URL path (`/objects/x/versions/1.0.0/agent.json`), merged in order. */
export function headersFor(pathname: string, rules: readonly HeaderRule[] = hostHeaderRules()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rules) if (matcher(r.pattern).test(pathname)) Object.assign(out, r.headers);
  return out;
}

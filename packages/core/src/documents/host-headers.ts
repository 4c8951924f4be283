/**
 * How a host serves the site: CORS on everything (every path is public, and the SDK, agents and other origins read the
 * JSON, the bytes and the ledger), long immutable caching for what never changes, short revalidation for what grows,
 * the content types of `content-types.ts`, and published bytes sandboxed (downloads when no runtime shows them). The build writes it as `_headers` (Netlify, Cloudflare Pages); the
 * preview server applies the same rules. Pure.
 */
import { RUNTIMES } from '../format/compatibility.ts';
import { CONTENT_TYPES, NAMED_CONTENT_TYPES } from '../format/content-types.ts';
import { REPRESENTATION_KINDS } from '../format/representation-kinds.ts';
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

const REPRESENTATIONS = '/objects/*/versions/*/representations/*';

/** The extensions a runtime shows (the viewer's glTF, the browser's images); a representation of any other is a download. */
const SHOWN: ReadonlySet<string> = new Set(RUNTIMES.flatMap((r) => r.formats));

/**
 * The extensions of representation files served as downloads: the known kinds no runtime shows and those of `files`
 * (representation file names), as written (host patterns match case-sensitively); only plain extensions, since one is
 * written into `_headers`.
 */
export function downloadExtensions(files: readonly string[] = []): string[] {
  const exts = files.map((f) => (f.includes('.') ? f.slice(f.lastIndexOf('.') + 1) : ''));
  return [...new Set([...REPRESENTATION_KINDS.map((k) => k.format), ...exts])].filter((e) => /^[A-Za-z0-9_-]+$/.test(e) && !SHOWN.has(e)).sort();
}

/**
 * The site's rules; `representationFiles` are the names of the registry's representation files, so that each kind no
 * runtime shows is served as a download. No header is set by two rules that can match the same path (hosts join such
 * values).
 */
export function hostHeaderRules(representationFiles: readonly string[] = []): HeaderRule[] {
  return [
    { pattern: '/*', headers: { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' }, note: 'Every path is public: any origin may read it.' },
    { pattern: '/objects/*/versions/*/aso.object.json', headers: { 'Cache-Control': IMMUTABLE }, note: 'A published manifest and its bytes never change.' },
    {
      pattern: REPRESENTATIONS,
      headers: { 'Cache-Control': IMMUTABLE, 'Content-Security-Policy': 'sandbox' },
      note: 'Published bytes are never a page of the site: a browser that opens one runs nothing of it with the site\'s origin.',
    },
    ...downloadExtensions(representationFiles).map((ext, i) => ({
      pattern: `${REPRESENTATIONS.slice(0, -1)}*.${ext}`,
      headers: { 'Content-Disposition': 'attachment' },
      ...(i === 0 ? { note: 'No runtime shows these: a browser saves them.' } : {}),
    })),
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
  const head = ['# Written by the build from packages/core/src/documents/host-headers.ts; read by hosts that support _headers files (Netlify, Cloudflare Pages).'];
  const blocks = rules.map((r) => [...(r.note ? [`# ${r.note}`] : []), r.pattern, ...Object.entries(r.headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n'));
  return `${[head.join('\n'), ...blocks].join('\n\n')}\n`;
}

function matcher(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/**
 * The headers of every rule that matches a URL path (`/objects/x/versions/1.0.0/agent.json`), merged in order; by
 * default the rules of a registry that holds the file the path names.
 */
export function headersFor(pathname: string, rules: readonly HeaderRule[] = hostHeaderRules([pathname.slice(pathname.lastIndexOf('/') + 1)])): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rules) if (matcher(r.pattern).test(pathname)) Object.assign(out, r.headers);
  return out;
}

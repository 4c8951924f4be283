/**
 * The site's feeds: an Atom feed (`feed.xml`) and a JSON Feed (`feed.json`) of the latest publications and
 * retractions, newest first, so that people and agents can follow a registry without crawling it. Pure.
 */
import type { VersionRecord } from './api-documents.ts';
import { siteUrl, versionPagePath } from '../format/paths.ts';

/** How many events a feed carries. */
const FEED_LENGTH = 50;

/** The site paths of the feeds. */
const FEED_PATHS = { atom: 'feed.xml', json: 'feed.json' } as const;

/** One thing that happened to a version. */
export interface FeedEvent {
  kind: 'published' | 'retracted';
  /** RFC 3339. */
  at: string;
  version: VersionRecord;
}

/** Every publication and retraction, newest first (ties: retractions first, then by id and version), at most `limit`. */
export function feedEvents(versions: readonly VersionRecord[], limit = FEED_LENGTH): FeedEvent[] {
  const events: FeedEvent[] = [];
  for (const v of versions) {
    events.push({ kind: 'published', at: v.publication.publishedAt, version: v });
    if (v.retracted) events.push({ kind: 'retracted', at: v.retracted.retractedAt, version: v });
  }
  const key = (e: FeedEvent): string => `${e.version.manifest.id}@${e.version.manifest.version}`;
  events.sort(
    (a, b) =>
      Date.parse(b.at) - Date.parse(a.at) ||
      (a.kind === b.kind ? 0 : a.kind === 'retracted' ? -1 : 1) ||
      (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0),
  );
  return events.slice(0, limit);
}

/** The stable id of an event: the publication's UUID, or the version page with `#retracted`. */
function feedEventId(registryUrl: string, e: FeedEvent): string {
  const { manifest, publication } = e.version;
  return e.kind === 'published' ? `urn:uuid:${publication.publicationId}` : `${siteUrl(registryUrl, versionPagePath(manifest.id, manifest.version))}#retracted`;
}

/** Text escaped for XML character data and attribute values; characters XML 1.0 cannot carry become U+FFFD. */
function xmlEscape(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** The title, link and plain-text summary of an event. */
function describe(registryUrl: string, e: FeedEvent): { id: string; title: string; link: string; summary: string } {
  const { manifest, publication, retracted } = e.version;
  const ref = `${manifest.id}@${manifest.version}`;
  const what = `${manifest.name} ${manifest.version}`;
  return {
    id: feedEventId(registryUrl, e),
    title: e.kind === 'published' ? `Published ${what}` : `Retracted ${what}`,
    link: siteUrl(registryUrl, versionPagePath(manifest.id, manifest.version)),
    summary:
      e.kind === 'published'
        ? `${ref} published by ${publication.publisher}, record hash ${publication.recordHash}.${manifest.description ? ` ${manifest.description}` : ''}`
        : `${ref} retracted: ${retracted!.reason} It stays published and verifiable; latest skips it.`,
  };
}

const FEED_TITLE = 'ASO registry: publications and retractions';
const FEED_SUBTITLE = 'New immutable versions of 3D objects, and retracted ones, newest first.';

/** `feed.xml`: Atom 1.0 (RFC 4287); every text is plain text, escaped. */
export function atomFeed(registryUrl: string, versions: readonly VersionRecord[], limit = FEED_LENGTH): string {
  const events = feedEvents(versions, limit);
  const home = siteUrl(registryUrl, '');
  const updated = events[0]?.at ?? '1970-01-01T00:00:00Z';
  const x = xmlEscape;
  const entries = events.map((e) => {
    const d = describe(registryUrl, e);
    return [
      '  <entry>',
      `    <id>${x(d.id)}</id>`,
      `    <title type="text">${x(d.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${x(d.link)}"/>`,
      `    <updated>${x(e.at)}</updated>`,
      `    <published>${x(e.at)}</published>`,
      `    <author><name>${x(e.version.publication.publisher)}</name></author>`,
      ...e.version.manifest.tags.map((t) => `    <category term="${x(t)}"/>`),
      `    <summary type="text">${x(d.summary)}</summary>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${x(home)}</id>`,
    `  <title type="text">${x(FEED_TITLE)}</title>`,
    `  <subtitle type="text">${x(FEED_SUBTITLE)}</subtitle>`,
    `  <updated>${x(updated)}</updated>`,
    `  <author><name>ASO registry</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${x(siteUrl(registryUrl, FEED_PATHS.atom))}"/>`,
    `  <link rel="alternate" type="text/html" href="${x(home)}"/>`,
    `  <link rel="alternate" type="application/feed+json" href="${x(siteUrl(registryUrl, FEED_PATHS.json))}"/>`,
    `  <generator>aso-registry</generator>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/** `feed.json`: JSON Feed 1.1, with `content_text` (never HTML). */
export function jsonFeed(registryUrl: string, versions: readonly VersionRecord[], limit = FEED_LENGTH): string {
  const events = feedEvents(versions, limit);
  const doc = {
    version: 'https://jsonfeed.org/version/1.1',
    title: FEED_TITLE,
    description: FEED_SUBTITLE,
    home_page_url: siteUrl(registryUrl, ''),
    feed_url: siteUrl(registryUrl, FEED_PATHS.json),
    language: 'en',
    items: events.map((e) => {
      const d = describe(registryUrl, e);
      return {
        id: d.id,
        url: d.link,
        title: d.title,
        content_text: d.summary,
        date_published: e.at,
        authors: [{ name: e.version.publication.publisher }],
        tags: e.version.manifest.tags,
        _aso: {
          event: e.kind,
          id: e.version.manifest.id,
          version: e.version.manifest.version,
          recordHash: e.version.publication.recordHash,
          ...(e.kind === 'retracted' ? { reason: e.version.retracted!.reason } : {}),
        },
      };
    }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

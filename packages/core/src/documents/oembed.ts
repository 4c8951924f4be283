/**
 * A version's oEmbed document (https://oembed.com, type `rich`): an `<iframe>` of its embed page on the registry's site,
 * and the snippet the record page's Embed button shows, which is the same markup. Pure.
 */
import { embedPagePath, siteUrl } from '../format/paths.ts';

/** The iframe's size in CSS pixels: 4:3, the size most 3D embeds offer first. */
export const EMBED_SIZE = { width: 640, height: 480 } as const;

/** `objects/<id>/versions/<v>/oembed.json`, as https://oembed.com section 2.3.4 names its members. */
export interface OembedDocument {
  version: '1.0';
  type: 'rich';
  title: string;
  provider_name: string;
  provider_url: string;
  html: string;
  width: number;
  height: number;
  /** The version's catalog thumbnail; the three thumbnail members come together or not at all. */
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

/** What a version's embed needs to know. */
export interface EmbedSubject {
  registryUrl: string;
  id: string;
  version: string;
  /** The manifest `name`. */
  name: string;
}

/** A thumbnail as an absolute URL with its size in pixels. */
export interface OembedThumbnail {
  url: string;
  width: number;
  height: number;
}

/** The five characters that end or open markup, as character references: safe in text and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The registry's name as embeds show it: the host of its URL (`registry.example.org`). */
export function registryName(registryUrl: string): string {
  try {
    return new URL(registryUrl).host || registryUrl;
  } catch {
    return registryUrl;
  }
}

/** The title of a version's embed: `<name> <version>`. */
export function embedTitle(subject: Pick<EmbedSubject, 'name' | 'version'>): string {
  return `${subject.name} ${subject.version}`;
}

/** The `<iframe>` of a version's embed page, every value escaped. */
export function embedHtml(subject: EmbedSubject): string {
  const src = siteUrl(subject.registryUrl, embedPagePath(subject.id, subject.version));
  const title = `${embedTitle(subject)} (3D viewer)`;
  return (
    `<iframe src="${escapeHtml(src)}" width="${EMBED_SIZE.width}" height="${EMBED_SIZE.height}" title="${escapeHtml(title)}"` +
    ` style="border:0;max-width:100%" loading="lazy" allow="fullscreen; xr-spatial-tracking"></iframe>`
  );
}

/** A version's oEmbed document; `thumbnail` when the version has one. */
export function oembedDocument(subject: EmbedSubject, thumbnail: OembedThumbnail | null = null): OembedDocument {
  return {
    version: '1.0',
    type: 'rich',
    title: embedTitle(subject),
    provider_name: registryName(subject.registryUrl),
    provider_url: `${subject.registryUrl.replace(/\/+$/, '')}/`,
    html: embedHtml(subject),
    width: EMBED_SIZE.width,
    height: EMBED_SIZE.height,
    ...(thumbnail ? { thumbnail_url: thumbnail.url, thumbnail_width: thumbnail.width, thumbnail_height: thumbnail.height } : {}),
  };
}

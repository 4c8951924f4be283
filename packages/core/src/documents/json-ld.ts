/**
 * schema.org JSON-LD for a record page. Pure.
 *
 * The context is inline: schema.org as the vocabulary, with the URL-valued properties typed as IRIs. So every term and
 * every `@id` expands to an absolute IRI with no document to fetch, and a license that is not a URL stays text.
 */
import { licenseRef } from '../format/license.ts';
import { sriToHex } from '../format/sri.ts';
import type { Manifest, PublicationRecord, Representation } from '../format/types.ts';

/** The inline context of every JSON-LD document of the site. */
const JSON_LD_CONTEXT = {
  '@vocab': 'https://schema.org/',
  url: { '@type': '@id' },
  contentUrl: { '@type': '@id' },
  license: { '@type': '@id' },
  image: { '@type': '@id' },
} as const;

/** The schema.org type of a file: `3DModel` for glTF, `ImageObject` for images, `MediaObject` otherwise. */
export function mediaObjectType(rep: Pick<Representation, 'type' | 'format' | 'mediaType'>): '3DModel' | 'ImageObject' | 'MediaObject' {
  if (rep.format === 'glb' || rep.format === 'gltf' || rep.mediaType.startsWith('model/gltf')) return '3DModel';
  if (rep.type === 'image' || rep.mediaType.startsWith('image/')) return 'ImageObject';
  return 'MediaObject';
}

/** A license as JSON-LD: the SPDX page or the URL as an IRI, free text as a `CreativeWork` that names it. */
export function licenseNode(license: string): string | { '@type': 'CreativeWork'; name: string } {
  const ref = licenseRef(license);
  return ref.kind === 'text' ? { '@type': 'CreativeWork', name: ref.text } : ref.url;
}

/** The JSON-LD object of one object version: each file (and the manifest) a media object with its hex SHA-256. */
export function modelJsonLd(manifest: Manifest, publication: PublicationRecord, pageUrl: string, manifestUrl: string): Record<string, unknown> {
  const files = [...manifest.representations, ...(manifest.preview ? [manifest.preview] : [])];
  return {
    '@context': JSON_LD_CONTEXT,
    '@type': '3DModel',
    '@id': pageUrl,
    url: pageUrl,
    identifier: `${manifest.id}@${manifest.version}`,
    name: manifest.name,
    ...(manifest.description ? { description: manifest.description } : {}),
    version: manifest.version,
    keywords: manifest.tags,
    dateCreated: manifest.createdAt,
    datePublished: publication.publishedAt,
    ...(manifest.license ? { license: licenseNode(manifest.license) } : {}),
    ...(manifest.preview ? { image: manifest.preview.url } : {}),
    subjectOf: {
      '@type': 'MediaObject',
      name: 'aso.object.json',
      contentUrl: manifestUrl,
      encodingFormat: 'application/json',
      sha256: sriToHex(publication.recordHash),
    },
    encoding: files.map((rep) => ({
      '@type': mediaObjectType(rep),
      name: rep.id,
      contentUrl: rep.url,
      encodingFormat: rep.mediaType,
      contentSize: `${rep.byteLength} B`,
      sha256: sriToHex(rep.hash),
    })),
  };
}

/** schema.org `3DModel` JSON-LD for a record page. Pure. */
import { sriToHex } from './sri.ts';
import type { Manifest, PublicationRecord } from './types.ts';

/** The JSON-LD object of one object version, with the hex SHA-256 of every file. */
export function modelJsonLd(manifest: Manifest, publication: PublicationRecord, pageUrl: string, manifestUrl: string): Record<string, unknown> {
  const files = [...manifest.representations, ...(manifest.preview ? [manifest.preview] : [])];
  return {
    '@context': 'https://schema.org',
    '@type': '3DModel',
    '@id': pageUrl,
    url: pageUrl,
    identifier: `${manifest.id}@${manifest.version}`,
    name: manifest.name,
    description: manifest.description,
    version: manifest.version,
    keywords: manifest.tags,
    dateCreated: manifest.createdAt,
    datePublished: publication.publishedAt,
    ...(manifest.license ? { license: manifest.license } : {}),
    ...(manifest.preview ? { image: manifest.preview.url } : {}),
    subjectOf: { '@type': 'DigitalDocument', url: manifestUrl, encodingFormat: 'application/json', sha256: sriToHex(publication.recordHash) },
    encoding: files.map((rep) => ({
      '@type': 'MediaObject',
      name: rep.id,
      contentUrl: rep.url,
      encodingFormat: rep.mediaType,
      contentSize: `${rep.byteLength} bytes`,
      sha256: sriToHex(rep.hash),
    })),
  };
}

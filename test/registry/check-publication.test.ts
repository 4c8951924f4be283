import { describe, expect, it } from 'vitest';
import { publicationProblems } from '../../src/registry/check-publication.ts';

const HASH = `sha256-${'A'.repeat(43)}=`;
const OTHER = `sha256-${'B'.repeat(43)}=`;
const record = (over: Record<string, unknown> = {}) => ({
  publicationId: '0b5d1c1c-0d5e-4a43-9d55-0f9e2f0f1a11',
  publishedAt: '2026-01-02T00:00:00Z',
  publisher: 'registry-bot',
  recordHash: HASH,
  ...over,
});

describe('publicationProblems', () => {
  it('accepts a record whose hash is the manifest hash, with an offset date and an uppercase UUID', () => {
    expect(publicationProblems(record(), HASH)).toEqual([]);
    expect(publicationProblems(record({ publishedAt: '2026-01-02T01:00:00+01:00', publicationId: '0B5D1C1C-0D5E-4A43-9D55-0F9E2F0F1A11' }), HASH)).toEqual([]);
  });

  it('names a record hash that is not the hash of the manifest bytes, with both values', () => {
    expect(publicationProblems(record({ recordHash: OTHER }), HASH)).toEqual([
      { pointer: '/recordHash', message: `is not the hash of the exact bytes of aso.object.json: expected ${HASH}, actual ${OTHER}` },
    ]);
  });

  it('says what is wrong with each field, once each', () => {
    expect(publicationProblems(record({ publicationId: 'pub-1', publishedAt: '2026-01-02', publisher: '   ', recordHash: 'sha256-short' }), HASH)).toEqual([
      { pointer: '/publicationId', message: 'must be a UUID (8-4-4-4-12 hexadecimal digits)' },
      { pointer: '/publishedAt', message: 'must be an RFC 3339 date-time with an offset or Z' },
      { pointer: '/publisher', message: 'must not be empty' },
      { pointer: '/recordHash', message: 'must be sha256-<base64 of the 32-byte digest> (43 base64 characters and "=")' },
    ]);
  });

  it('names missing and unknown fields, and a record that is not an object', () => {
    const { publisher, ...missing } = record();
    expect(publicationProblems({ ...missing, signedBy: 'x' }, HASH)).toEqual([
      { pointer: '/publisher', message: 'is required but missing' },
      { pointer: '/signedBy', message: 'is not an allowed property' },
    ]);
    expect(publicationProblems([], HASH)).toEqual([{ pointer: '', message: 'must be a JSON object' }]);
    expect(publicationProblems(null, HASH)).toEqual([{ pointer: '', message: 'must be a JSON object' }]);
  });
});

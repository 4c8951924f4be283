import { describe, expect, it } from 'vitest';
import { assetPath, toJobDocument } from '../../../src/jobs/service/job-document.ts';
import type { JobRecord } from '../../../src/jobs/store/types.ts';

const record = (over: Partial<JobRecord> = {}): JobRecord => ({
  id: 'job-1',
  owner: 'key-1',
  model: 'relief',
  modelVersion: '1.0.0',
  status: 'queued',
  progress: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  startedAt: null,
  finishedAt: null,
  attempts: 0,
  input: { kind: 'url', url: 'https://images.test/a.png' },
  idempotency: { key: 'k', requestHash: 'h' },
  asset: null,
  error: null,
  ...over,
});
const asset = { format: 'glb', mediaType: 'model/gltf-binary', byteLength: 1234, sha256: 'ab'.repeat(32) };

describe('assetPath', () => {
  it('puts the id, encoded, under /v1/jobs', () => {
    expect(assetPath('job-1')).toBe('/v1/jobs/job-1/asset');
    expect(assetPath('a/b c')).toBe('/v1/jobs/a%2Fb%20c/asset');
  });
});

describe('toJobDocument', () => {
  it('shows a queued job in snake case, without the owner, input or idempotency', () => {
    expect(toJobDocument(record(), 'https://jobs.test')).toEqual({
      id: 'job-1',
      object: 'job',
      status: 'queued',
      model: 'relief',
      model_version: '1.0.0',
      progress: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:01.000Z',
      download_url: null,
      asset: null,
      error: null,
    });
  });

  it('gives a succeeded job an absolute download_url on the base URL and its asset', () => {
    const doc = toJobDocument(record({ status: 'succeeded', progress: 100, asset }), 'https://jobs.test');
    expect(doc.download_url).toBe('https://jobs.test/v1/jobs/job-1/asset');
    expect(doc.asset).toEqual({ format: 'glb', media_type: 'model/gltf-binary', byte_length: 1234, sha256: 'ab'.repeat(32) });
  });

  it('shows the error of a failed job only, and an asset only once succeeded', () => {
    const error = { code: 'no_foreground', message: 'nothing to trace' };
    expect(toJobDocument(record({ status: 'failed', error }), 'https://jobs.test').error).toEqual(error);
    expect(toJobDocument(record({ status: 'queued', error }), 'https://jobs.test').error).toBeNull();
    expect(toJobDocument(record({ status: 'running', asset }), 'https://jobs.test')).toMatchObject({ download_url: null, asset: null });
    expect(toJobDocument(record({ status: 'succeeded', asset: null }), 'https://jobs.test')).toMatchObject({ download_url: null, asset: null });
  });
});

/** The job API client's small parts: backoff with jitter, Retry-After, and the job document check. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs } from '../../src/jobs/client/backoff.ts';
import { JobClient } from '../../src/jobs/client/job-client.ts';
import { parseJob, parseModelList } from '../../src/jobs/client/parse-job.ts';
import { parseSubmitArgs, parseTags } from '../../src/publish/submit-options.ts';
import { catalogJson } from './helpers.ts';

describe('backoff', () => {
  it('grows by the factor, stays between half and all of the step, and is capped', () => {
    const options = { initialMs: 100, maxMs: 1000, factor: 2 };
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, options, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, options, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });
});

describe('job documents', () => {
  const job = { id: 'b5d1c1c2-0d5e-4a43-9d55-0f9e2f0f1a11', status: 'running', model: 'relief', model_version: '1.0.0', progress: 40, created_at: null, updated_at: null, download_url: null, asset: null, error: null };

  it('accepts a job and names the field that is wrong', () => {
    expect(parseJob(job)).toMatchObject({ id: job.id, status: 'running', progress: 40 });
    expect(parseJob([])).toBe('a job must be a JSON object');
    expect(parseJob({ ...job, status: 'done' })).toBe('field "status" must be one of queued, running, succeeded, failed, canceled');
    expect(parseJob({ ...job, id: '../../etc' })).toMatch(/^field "id" \("\.\.\/\.\.\/etc"\) has characters a job id cannot have$/);
    expect(parseJob({ ...job, status: 'succeeded' })).toBe('a succeeded job must carry a "download_url"');
    expect(parseJob({ ...job, asset: { format: 'glb', media_type: 'model/gltf-binary', byte_length: 1, sha256: 'xyz' } })).toBe('field "asset.sha256" must be 64 lowercase hexadecimal digits');
    expect(parseJob({ ...job, status: 'failed', error: { code: 'boom', message: 'it broke' } })).toMatchObject({ error: { code: 'boom', message: 'it broke' } });
  });

  it('reads the model catalog', () => {
    const models = parseModelList(catalogJson());
    expect(Array.isArray(models) && models.map((m) => m.id)).toEqual(['relief', 'silhouette', 'card', 'lithophane', 'points']);
    expect(parseModelList({ data: [{ id: 'x' }] })).toBe('data[0].output must be { type, format, media_type }');
  });

  it('takes the API origin with or without /v1, and refuses what is not an http(s) URL', () => {
    expect(new JobClient({ baseUrl: 'http://127.0.0.1:8787/v1/', apiKey: 'k' }).baseUrl).toBe('http://127.0.0.1:8787');
    expect(new JobClient({ baseUrl: 'https://jobs.example.org/api', apiKey: 'k' }).jobUrl('a b')).toBe('https://jobs.example.org/api/v1/jobs/a%20b');
    expect(() => new JobClient({ baseUrl: 'jobs.example.org', apiKey: 'k' })).toThrow('the job API URL "jobs.example.org" is not an absolute URL');
    expect(() => new JobClient({ baseUrl: 'ftp://jobs.example.org', apiKey: 'k' })).toThrow('must use http or https');
  });
});

describe('arguments', () => {
  it('parses the flags of the issue', () => {
    const parsed = parseSubmitArgs(['--image', 'photo.jpg', '--model', 'relief', '--object', 'oak-chair', '--tags', 'a, b,,c', '--bump', 'minor', '--no-commit', '--timeout', '90']);
    expect(parsed).toMatchObject({ image: 'photo.jpg', model: 'relief', object: 'oak-chair', tags: ['a', 'b', 'c'], bump: 'minor', commit: false, timeoutMs: 90_000 });
    expect(() => parseSubmitArgs(['--timeout=-1'])).toThrow('--timeout must be a positive number of seconds, not "-1"');
    expect(() => parseTags('a,b,a')).toThrow('--tags names "a" twice; tags must be unique');
    expect(parseSubmitArgs(['--max-asset-mb', '64']).maxAssetBytes).toBe(64 * 1024 * 1024);
    expect(() => parseSubmitArgs(['--max-asset-mb', '0.5'])).toThrow('--max-asset-mb must be a whole number of MiB, at least 1, not "0.5"');
  });
});

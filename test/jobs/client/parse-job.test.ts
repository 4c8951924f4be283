import { describe, expect, it } from 'vitest';
import { parseJob, parseModelList } from '../../../src/jobs/client/parse-job.ts';
import { catalogJson } from '../../publish/helpers.ts';
import { jobJson } from '../../support/scripted-server.ts';

const sha = 'ab'.repeat(32);
const asset = { format: 'glb', media_type: 'model/gltf-binary', byte_length: 10, sha256: sha };

describe('parseJob', () => {
  it('reads a job, keeping only the documented fields', () => {
    expect(parseJob(jobJson({ status: 'running', progress: 40 }))).toEqual({
      id: 'job-1',
      status: 'running',
      model: 'relief',
      model_version: '1.0.0',
      progress: 40,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      download_url: null,
      asset: null,
      error: null,
    });
  });

  it('reads a succeeded job with its asset, and a failed one with its error', () => {
    expect(parseJob(jobJson({ status: 'succeeded', progress: 100, download_url: '/v1/jobs/job-1/asset', asset }))).toMatchObject({ download_url: '/v1/jobs/job-1/asset', asset });
    expect(parseJob(jobJson({ status: 'failed', error: { code: 'boom', message: 'it broke' } }))).toMatchObject({ error: { code: 'boom', message: 'it broke' } });
    expect(parseJob(jobJson({ status: 'failed', error: { message: 'no code' } }))).toMatchObject({ error: { code: 'unknown', message: 'no code' } });
  });

  it('fills what may be left out, and keeps progress between 0 and 100', () => {
    const { progress, model_version, created_at, updated_at, download_url, asset: a, error, ...bare } = jobJson();
    expect(parseJob(bare)).toMatchObject({ progress: 0, model_version: null, created_at: null, updated_at: null, download_url: null, asset: null, error: null });
    expect(parseJob(jobJson({ progress: 140 }))).toMatchObject({ progress: 100 });
    expect(parseJob(jobJson({ progress: -3 }))).toMatchObject({ progress: 0 });
  });

  it('names the field that is wrong', () => {
    const cases: Array<[Record<string, unknown> | unknown, string]> = [
      [[], 'a job must be a JSON object'],
      [null, 'a job must be a JSON object'],
      [jobJson({ id: '' }), 'field "id" must be a non-empty string'],
      [jobJson({ id: 7 }), 'field "id" must be a non-empty string'],
      [jobJson({ status: 'done' }), 'field "status" must be one of queued, running, succeeded, failed, canceled'],
      [jobJson({ model: null }), 'field "model" must be a string'],
      [jobJson({ progress: '40' }), 'field "progress" must be a number'],
      [jobJson({ progress: Number.NaN }), 'field "progress" must be a number'],
      [jobJson({ model_version: 1 }), 'field "model_version" must be a string or null'],
      [jobJson({ download_url: {} }), 'field "download_url" must be a string or null'],
      [jobJson({ asset: { ...asset, byte_length: 1.5 } }), 'field "asset" must be { format, media_type, byte_length, sha256 } or null'],
      [jobJson({ asset: { ...asset, sha256: sha.toUpperCase() } }), 'field "asset.sha256" must be 64 lowercase hexadecimal digits'],
      [jobJson({ error: 'boom' }), 'field "error" must be { code, message } or null'],
      [jobJson({ status: 'succeeded' }), 'a succeeded job must carry a "download_url"'],
    ];
    for (const [value, message] of cases) expect(parseJob(value), message).toBe(message);
  });

  it('refuses an id that could leave the jobs path, quoting its start', () => {
    expect(parseJob(jobJson({ id: '../../etc/passwd' }))).toBe('field "id" ("../../etc/passwd") has characters a job id cannot have');
    expect(parseJob(jobJson({ id: 'x'.repeat(201) }))).toBe(`field "id" ("${'x'.repeat(40)}") has characters a job id cannot have`);
    expect(parseJob(jobJson({ id: 'a1:b.c_d-e' }))).toMatchObject({ id: 'a1:b.c_d-e' });
  });
});

describe('parseModelList', () => {
  it('reads the catalog of the reference service', () => {
    const models = parseModelList(catalogJson());
    expect(Array.isArray(models) && models.map((m) => m.id)).toEqual(['relief', 'silhouette', 'card', 'lithophane', 'points']);
  });

  it('fills a missing name, version, provider and parameters', () => {
    expect(parseModelList({ data: [{ id: 'x', output: { type: 'mesh', format: 'glb', media_type: 'model/gltf-binary' }, parameters: [] }] })).toEqual([
      { id: 'x', name: 'x', version: 'unknown', provider: 'unknown', output: { type: 'mesh', format: 'glb', media_type: 'model/gltf-binary' }, parameters: {} },
    ]);
  });

  it('names what is wrong', () => {
    const output = { type: 'mesh', format: 'glb', media_type: 'model/gltf-binary' };
    expect(parseModelList([])).toBe('the model list must be an object with a "data" array');
    expect(parseModelList({ data: {} })).toBe('the model list must be an object with a "data" array');
    expect(parseModelList({ data: [{ id: 'a', output }, { id: '' }] })).toBe('data[1].id must be a non-empty string');
    expect(parseModelList({ data: [{ id: 'x' }] })).toBe('data[0].output must be { type, format, media_type }');
    expect(parseModelList({ data: [{ id: 'x', output: { ...output, media_type: 3 } }] })).toBe('data[0].output must be { type, format, media_type }');
  });
});

import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishError } from '../../src/publish/publish-error.ts';
import { loadState, removeState, saveState, type PublishState } from '../../src/publish/state-file.ts';

const state = (jobId: string): PublishState => ({
  kind: 'aso-submit-state',
  jobId,
  api: { url: 'http://127.0.0.1:8787' },
  model: 'relief',
  object: 'oak-chair',
  version: '1.0.0',
  name: 'Oak chair',
  description: '',
  tags: ['wood'],
  commit: true,
  image: { filename: 'photo.jpg', label: 'photo.jpg' },
  submittedAt: '2026-01-01T00:00:00Z',
});

async function failure(call: Promise<unknown>): Promise<PublishError> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PublishError);
  return error as PublishError;
}

describe('the state file of a submitted job', () => {
  let dir: string;
  beforeAll(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'aso-state-test-')), 'state');
  });
  afterAll(() => rm(join(dir, '..'), { recursive: true, force: true }));

  it('keeps the state and a copy of the image until removed', async () => {
    await saveState(dir, state('job-1'), Uint8Array.from([1, 2, 3]));
    expect((await readdir(dir)).sort()).toEqual(['job-1.image', 'job-1.json']);
    expect(await loadState(dir, 'job-1')).toEqual({ state: state('job-1'), image: Uint8Array.from([1, 2, 3]) });
    await removeState(dir, 'job-1');
    await removeState(dir, 'job-1');
    expect(await readdir(dir)).toEqual([]);
  });

  it('says there is nothing to resume, as a usage error, when no state exists', async () => {
    const error = await failure(loadState(dir, 'job-404'));
    expect(error.message).toBe(`--resume job-404: no state file ${join(dir, 'job-404.json')}; the job was published already, or never submitted from this folder`);
    expect(error.exitCode).toBe(2);
  });

  it('names a state file that is broken, belongs to another job, or lost its image', async () => {
    await writeFile(join(dir, 'job-2.json'), '{oops');
    expect((await failure(loadState(dir, 'job-2'))).message).toMatch(new RegExp(`^${join(dir, 'job-2.json')}: is not valid JSON`));
    await writeFile(join(dir, 'job-3.json'), JSON.stringify(state('job-other')));
    expect((await failure(loadState(dir, 'job-3'))).message).toBe(`${join(dir, 'job-3.json')}: is not the state of job job-3`);
    await saveState(dir, state('job-4'), Uint8Array.from([1]));
    await rm(join(dir, 'job-4.image'));
    expect((await failure(loadState(dir, 'job-4'))).message).toBe(`${join(dir, 'job-4.image')}: the copy of the input image of job job-4 is missing`);
  });

  it('refuses a job id that could name a file elsewhere', async () => {
    for (const id of ['../x', '.hidden', 'a/b', '']) {
      const error = await failure(loadState(dir, id));
      expect(error.message).toBe(`"${id}" is not a job id`);
      expect(error.exitCode).toBe(2);
      await expect(saveState(dir, state(id), new Uint8Array())).rejects.toThrow(`"${id}" is not a job id`);
    }
  });
});

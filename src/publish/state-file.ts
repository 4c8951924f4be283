/** The state of a submitted job, kept on disk until its version is published so that `--resume <job id>` can finish it. */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { PublishError } from './publish-error.ts';

/** What a resumed publish needs: the job, where it runs, the input image (a copy beside the state) and the new version's metadata. */
export interface PublishState {
  kind: 'aso-submit-state';
  jobId: string;
  /** The job API origin, or `embedded` for the built-in service (with its data folder and key). */
  api: { url: string } | { embedded: true; dataDir: string; key: string };
  model: string;
  object: string;
  version: string;
  name: string;
  description: string;
  tags: string[];
  license?: string;
  publisher?: string;
  commit: boolean;
  image: { filename: string; label: string; url?: string };
  submittedAt: string;
}

const JOB_ID = /^[A-Za-z0-9._:-]{1,200}$/;

function paths(stateDir: string, jobId: string): { state: string; image: string } {
  if (!JOB_ID.test(jobId) || jobId.startsWith('.')) throw new PublishError(`"${jobId}" is not a job id`, undefined, 2);
  return { state: join(stateDir, `${jobId}.json`), image: join(stateDir, `${jobId}.image`) };
}

/** Writes the state and a copy of the input image (each through a temporary file and a rename). */
export async function saveState(stateDir: string, state: PublishState, image: Uint8Array): Promise<void> {
  const p = paths(stateDir, state.jobId);
  await mkdir(stateDir, { recursive: true });
  await writeFileAtomic(p.image, image);
  await writeFileAtomic(p.state, `${JSON.stringify(state, null, 2)}\n`);
}

/** Reads the state of `jobId` and its image; a PublishError names the file when it is missing or broken. */
export async function loadState(stateDir: string, jobId: string): Promise<{ state: PublishState; image: Uint8Array }> {
  const p = paths(stateDir, jobId);
  let text: string;
  try {
    text = await readFile(p.state, 'utf8');
  } catch {
    throw new PublishError(`--resume ${jobId}: no state file ${p.state}; the job was published already, or never submitted from this folder`, undefined, 2);
  }
  let state: PublishState;
  try {
    state = JSON.parse(text) as PublishState;
  } catch (error) {
    throw new PublishError(`${p.state}: is not valid JSON (${(error as Error).message})`);
  }
  if (state?.kind !== 'aso-submit-state' || state.jobId !== jobId) throw new PublishError(`${p.state}: is not the state of job ${jobId}`);
  let image: Uint8Array;
  try {
    image = new Uint8Array(await readFile(p.image));
  } catch {
    throw new PublishError(`${p.image}: the copy of the input image of job ${jobId} is missing`);
  }
  return { state, image };
}

/** Removes the state of `jobId` (after a publish, or when the job can never succeed). */
export async function removeState(stateDir: string, jobId: string): Promise<void> {
  const p = paths(stateDir, jobId);
  await rm(p.state, { force: true });
  await rm(p.image, { force: true });
}

/**
 * `npm run bench -- --jobs`: jobs per second through the job service's queue, on the data folder (one process, N
 * model workers) and on Postgres (one API process and N worker processes), with the real `npm run jobs` entry.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { openKeys } from '../jobs/store/backend.ts';
import { startEmbeddedPostgres } from '../jobs/store/embedded-postgres.ts';
import { REPO_ROOT } from './run-bench.ts';

/** One measured configuration. */
export interface ThroughputRun {
  backend: 'files' | 'postgres';
  workers: number;
  jobs: number;
  /** From the first submission to the last job finished, after a warm-up of three jobs per worker. */
  seconds: number;
  jobsPerSecond: number;
}

/** Options of `measureJobThroughput`. */
export interface ThroughputOptions {
  /** Jobs per configuration; default 40. */
  jobs?: number;
  /** Worker counts; default 1, 2 and 4. */
  workers?: number[];
  /** Default `card`, the fastest built-in model. */
  model?: string;
  log?: (line: string) => void;
  /** Makes an empty database on a Postgres server that is running already and returns its URL; without it, the bench starts a Postgres of its own. */
  createDatabase?: (name: string) => Promise<string>;
}

/** Runs every configuration in turn and returns the figures. */
export async function measureJobThroughput(options: ThroughputOptions = {}): Promise<ThroughputRun[]> {
  const jobs = options.jobs ?? 40;
  const workerCounts = options.workers ?? [1, 2, 4];
  const model = options.model ?? 'card';
  const log = options.log ?? (() => {});
  const image = new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8a5' } }).png().toBuffer());
  const work = await mkdtemp(join(tmpdir(), 'aso-bench-jobs-'));
  await chmod(work, 0o755);
  const postgres = options.createDatabase ? undefined : await startEmbeddedPostgres({ dataDir: join(work, 'pg'), database: 'postgres' });
  const createDatabase = options.createDatabase ?? ((name: string) => postgres!.createDatabase(name));
  const runs: ThroughputRun[] = [];
  try {
    let n = 0;
    for (const backend of ['files', 'postgres'] as const) {
      for (const workers of workerCounts) {
        const dataDir = join(work, `data-${++n}`);
        const databaseUrl = backend === 'postgres' ? await createDatabase(`bench_${n}`) : undefined;
        const run = await measureOne({ backend, workers, jobs, model, image, dataDir, databaseUrl });
        log(`${backend}, ${workers} worker${workers > 1 ? 's' : ''}: ${jobs} jobs in ${run.seconds.toFixed(2)} s, ${run.jobsPerSecond.toFixed(1)} jobs/s`);
        runs.push(run);
      }
    }
  } finally {
    await postgres?.stop();
    await rm(work, { recursive: true, force: true });
  }
  return runs;
}

/** The Markdown table of the runs. */
export function formatThroughput(runs: readonly ThroughputRun[]): string {
  const lines = ['| backend | workers | jobs | seconds | jobs/s |', '|---|---:|---:|---:|---:|'];
  for (const r of runs) lines.push(`| ${r.backend === 'files' ? 'data folder' : 'Postgres'} | ${r.workers} | ${r.jobs} | ${r.seconds.toFixed(2)} | ${r.jobsPerSecond.toFixed(1)} |`);
  return lines.join('\n');
}

async function measureOne(config: { backend: 'files' | 'postgres'; workers: number; jobs: number; model: string; image: Uint8Array; dataDir: string; databaseUrl?: string }): Promise<ThroughputRun> {
  const { backend, workers, jobs, model, image, dataDir, databaseUrl } = config;
  // A key may create 60 jobs a minute: the jobs come from several keys, as from several clients.
  const store = await openKeys({ dataDir, databaseUrl });
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil((jobs + workers * 3) / 50); i++) keys.push((await store.create(`bench ${i}`)).key);
  await store.close();
  let sent = 0;
  const children: ChildProcess[] = [];
  try {
    const db = databaseUrl ? ['--database-url', databaseUrl] : [];
    // The data folder runs in one process with N model threads; Postgres runs one API process and N worker processes.
    const api = await spawnJobs(['--port', '0', '--data', dataDir, ...db, ...(backend === 'files' ? ['--concurrency', String(workers)] : ['--role', 'api'])], children);
    if (backend === 'postgres') await Promise.all(Array.from({ length: workers }, () => spawnJobs(['--role', 'worker', '--data', dataDir, ...db, '--concurrency', '1'], children)));
    const submit = async (): Promise<void> => {
      const form = new FormData();
      form.set('model', model);
      form.set('image', new Blob([new Uint8Array(image)]), 'bench.png');
      const key = keys[sent++ % keys.length]!;
      const response = await fetch(`${api}/v1/jobs`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
      if (response.status !== 202) throw new Error(`submitting a bench job answered ${response.status}: ${await response.text()}`);
    };
    const finished = async (count: number): Promise<void> => {
      for (;;) {
        const text = await (await fetch(`${api}/metrics`)).text();
        const status = (name: string): number => Number(new RegExp(`^aso_jobs\\{status="${name}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
        if (status('failed') + status('canceled') > 0) throw new Error(`a bench job failed:\n${text}`);
        if (status('succeeded') >= count) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // Warm-up: every worker starts its model thread before the clock runs.
    const warmup = workers * 3;
    for (let i = 0; i < warmup; i++) await submit();
    await finished(warmup);
    const started = performance.now();
    // Submissions go in parallel, a few at a time, as several clients would send them.
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < jobs) {
        next += 1;
        await submit();
      }
    }));
    await finished(warmup + jobs);
    const seconds = (performance.now() - started) / 1000;
    return { backend, workers, jobs, seconds, jobsPerSecond: jobs / seconds };
  } finally {
    await Promise.all(children.map((c) => new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : (c.once('exit', () => resolve()), c.kill('SIGTERM'))))));
  }
}

/** Starts `npm run jobs -- serve ...` and resolves with its URL (empty for a worker) once it runs. */
function spawnJobs(args: string[], children: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/jobs.ts', 'serve', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '' } });
  children.push(child);
  let text = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      const api = /listening on (http:\/\/\S+)/.exec(text);
      if (api) resolve(api[1]!);
      else if (/ASO job worker \S+ running/.test(text)) resolve('');
    });
    child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
    child.once('exit', (code) => reject(new Error(`npm run jobs -- serve ${args.join(' ')} exited ${code}:\n${text}`)));
  });
}

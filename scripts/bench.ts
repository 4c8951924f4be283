/**
 * `npm run bench [-- --sizes 100,1000,10000] [-- --hash-mb 512] [-- --keep]`: measure the build and write bench/results.json.
 * `npm run bench -- --log-only [--log-entries 100000]`: only the transparency log's proof sizes, no site built.
 * `npm run bench -- --jobs [--jobs-count 40] [--workers 1,2,4]`: only the job service's queue, data folder against Postgres.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatThroughput, measureJobThroughput } from '../src/bench/job-throughput.ts';
import { DEFAULT_SIZES, formatResults, REPO_ROOT, runBench } from '../src/bench/run-bench.ts';
import { formatLogProofs, measureLogProofs } from '../src/bench/log-proof-size.ts';

const USAGE = `usage: npm run bench [-- --sizes 100,1000,10000] [-- --hash-mb 512] [-- --out bench/results.json] [-- --keep]
       npm run bench -- --log-only [--log-entries 100000]
       npm run bench -- --jobs [--jobs-count 40] [--workers 1,2,4] [--out bench/jobs-results.json]`;

/** Parses `--sizes 100,1000`: positive whole numbers. */
export function parseSizes(text: string): number[] {
  const sizes = text.split(',').map((s) => s.trim().replace(/_/g, ''));
  const bad = sizes.find((s) => !/^[1-9]\d*$/.test(s));
  if (bad !== undefined) throw new Error(`--sizes: "${bad}" is not a positive whole number of versions (example: --sizes 100,1000)`);
  return sizes.map(Number);
}

async function main(): Promise<number> {
  let values: { sizes?: string; 'hash-mb'?: string; out?: string; keep?: boolean; 'log-only'?: boolean; 'log-entries'?: string; help?: boolean; jobs?: boolean; 'jobs-count'?: string; workers?: string };
  try {
    ({ values } = parseArgs({
      options: {
        sizes: { type: 'string' },
        'hash-mb': { type: 'string' },
        out: { type: 'string' },
        keep: { type: 'boolean' },
        'log-only': { type: 'boolean' },
        'log-entries': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        jobs: { type: 'boolean' },
        'jobs-count': { type: 'string' },
        workers: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.jobs) return benchJobs(values);
  let sizes = DEFAULT_SIZES;
  let hashMb = 512;
  let logEntries = 100_000;
  try {
    if (values['log-entries'] !== undefined) logEntries = parseSizes(values['log-entries'])[0]!;
    if (values.sizes !== undefined) sizes = parseSizes(values.sizes);
    if (values['hash-mb'] !== undefined) {
      hashMb = Number(values['hash-mb']);
      if (!Number.isInteger(hashMb) || hashMb < 1) throw new Error(`--hash-mb: "${values['hash-mb']}" is not a positive whole number of MiB`);
    }
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values['log-only']) {
    process.stdout.write(`${formatLogProofs(measureLogProofs(logEntries)).join('\n')}\n`);
    return 0;
  }
  const results = await runBench({
    logEntries,
    sizes,
    hashBytes: hashMb * 1024 * 1024,
    ...(values.keep ? { keep: true } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const out = values.out ?? join(REPO_ROOT, 'bench', 'results.json');
  await mkdir(join(out, '..'), { recursive: true });
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${formatResults(results)}\n\nwrote ${out}\n`);
  return 0;
}

/** `--jobs`: jobs per second through the queue, data folder against Postgres. */
async function benchJobs(values: { out?: string; 'jobs-count'?: string; workers?: string }): Promise<number> {
  let jobs = 40;
  let workers = [1, 2, 4];
  try {
    if (values['jobs-count'] !== undefined) {
      jobs = Number(values['jobs-count']);
      if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs-count: "${values['jobs-count']}" is not a positive whole number`);
    }
    if (values.workers !== undefined) workers = parseSizes(values.workers);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const runs = await measureJobThroughput({ jobs, workers, log: (line) => process.stderr.write(`${line}\n`) });
  const out = values.out ?? join(REPO_ROOT, 'bench', 'jobs-results.json');
  await mkdir(join(out, '..'), { recursive: true });
  await writeFile(out, `${JSON.stringify({ date: new Date().toISOString(), model: 'card', runs }, null, 2)}\n`);
  process.stdout.write(`${formatThroughput(runs)}\n\nwrote ${out}\n`);
  return 0;
}

process.exitCode = await main();

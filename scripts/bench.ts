/**
 * `npm run bench [-- --sizes 100,1000,10000] [-- --hash-mb 512] [-- --keep]`: measure the build and write bench/results.json.
 * `npm run bench -- --log-only [--log-entries 100000]`: only the transparency log's proof sizes, no site built.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SIZES, formatResults, REPO_ROOT, runBench } from '../src/bench/run-bench.ts';
import { formatLogProofs, measureLogProofs } from '../src/bench/log-proof-size.ts';

const USAGE = 'usage: npm run bench [-- --sizes 100,1000,10000] [-- --hash-mb 512] [-- --out bench/results.json] [-- --keep]\n       npm run bench -- --log-only [--log-entries 100000]';

/** Parses `--sizes 100,1000`: positive whole numbers. */
export function parseSizes(text: string): number[] {
  const sizes = text.split(',').map((s) => s.trim().replace(/_/g, ''));
  const bad = sizes.find((s) => !/^[1-9]\d*$/.test(s));
  if (bad !== undefined) throw new Error(`--sizes: "${bad}" is not a positive whole number of versions (example: --sizes 100,1000)`);
  return sizes.map(Number);
}

async function main(): Promise<number> {
  let values: { sizes?: string; 'hash-mb'?: string; out?: string; keep?: boolean; 'log-only'?: boolean; 'log-entries'?: string; help?: boolean };
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

process.exitCode = await main();

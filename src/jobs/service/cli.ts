/** `npm run jobs -- <command>`: serve the job API, or create, list and revoke its API keys. */
import { parseArgs } from 'node:util';
import { openKeyStore } from '../store/data-dir.ts';
import { startJobService, type JobService } from './index.ts';
import { DEFAULT_PORT } from './options.ts';

/** Where the commands write. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** The data folder when `--data` is not given (relative to the working directory). */
export const DEFAULT_DATA_DIR = '.aso-jobs';

const USAGE = `Usage:
  npm run jobs -- serve [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--data ${DEFAULT_DATA_DIR}] [--concurrency N]
                        [--open-signup] [--allow-loopback-fetch] [--allow-private-fetch] [--public-url URL] [--log]
  npm run jobs -- keys create --name <name> [--data ${DEFAULT_DATA_DIR}]
  npm run jobs -- keys list [--data ${DEFAULT_DATA_DIR}]
  npm run jobs -- keys revoke <key id or name> [--data ${DEFAULT_DATA_DIR}]`;

/** A mistake in the command line: printed with the usage, exit code 2. */
class UsageError extends Error {}

/** Runs one command; resolves to the exit code. `serve` resolves with the running service instead of an exit code. */
export async function runJobsCli(argv: readonly string[], io: CliIo): Promise<number | JobService> {
  try {
    const [command, ...rest] = argv;
    if (command === 'serve') return await serve(rest, io);
    if (command === 'keys') return await keys(rest, io);
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`error: ${(err as Error).message}\n${USAGE}`);
      return 2;
    }
    io.err(`error: ${(err as Error).message}`);
    return 1;
  }
}

async function serve(args: string[], io: CliIo): Promise<JobService> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      concurrency: { type: 'string' },
      'open-signup': { type: 'boolean' },
      'allow-loopback-fetch': { type: 'boolean' },
      'allow-private-fetch': { type: 'boolean' },
      'public-url': { type: 'string' },
      log: { type: 'boolean' },
    },
  });
  const port = values.port === undefined ? DEFAULT_PORT : integer('--port', values.port, 0, 65_535);
  const concurrency = values.concurrency === undefined ? undefined : integer('--concurrency', values.concurrency, 1, 64);
  const dataDir = values.data ?? DEFAULT_DATA_DIR;
  const service = await startJobService({
    dataDir,
    port,
    host: values.host,
    concurrency,
    openSignup: values['open-signup'] ?? false,
    allowLoopbackFetch: values['allow-loopback-fetch'] ?? false,
    allowPrivateFetch: values['allow-private-fetch'] ?? false,
    publicUrl: values['public-url'],
    logger: values.log ?? false,
  });
  io.out(`ASO reference job service listening on ${service.url} (data: ${dataDir})`);
  return service;
}

async function keys(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: { data: { type: 'string' }, name: { type: 'string' } } });
  const store = await openKeyStore(values.data ?? DEFAULT_DATA_DIR);
  if (sub === 'create') {
    if (!values.name) throw new UsageError('keys create needs --name <name>');
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const { key, record } = await store.create(values.name);
    io.out(`Created API key ${record.id} named "${record.name}". It is shown once, on the next line; only its hash is stored.`);
    io.out(key);
    return 0;
  }
  if (sub === 'list') {
    const all = await store.list();
    if (all.length === 0) io.out('No API keys.');
    for (const r of all) io.out(`${r.id}\t${r.revokedAt ? `revoked ${r.revokedAt}` : 'active'}\tcreated ${r.createdAt}\t${r.name}`);
    return 0;
  }
  if (sub === 'revoke') {
    const target = positionals[0];
    if (!target || positionals.length > 1) throw new UsageError('keys revoke needs exactly one key id or name');
    const record = await store.revoke(target);
    io.out(`Revoked API key ${record.id} ("${record.name}").`);
    return 0;
  }
  throw new UsageError(sub ? `unknown keys command "${sub}"` : 'keys needs a command: create, list or revoke');
}

function integer(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

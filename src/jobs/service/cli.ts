/** `npm run jobs -- <command>`: serve the job API and its workers, or create, list and revoke its API keys. */
import { parseArgs } from 'node:util';
import { parseS3Location } from '../../io/s3-location.ts';
import { openKeys } from '../store/backend.ts';
import { redactUrl } from '../store/pg-pool.ts';
import { DEFAULT_WEBHOOK_OPTIONS } from '../webhooks/webhook-dispatcher.ts';
import { startJobService, type JobService } from './index.ts';
import { DEFAULT_CONNECTION_LIMITS, DEFAULT_LEASE_MS, DEFAULT_PORT, DEFAULT_UPLOAD_LIMITS, type ConnectionLimits, type JobServiceOptions, type ServiceRole, type UploadLimits } from './options.ts';

/** Where the commands write, and the environment they read (`DATABASE_URL`, `ASO_BLOB_STORE` and the AWS variables). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env?: Readonly<Record<string, string | undefined>>;
}

/** The data folder when `--data` is not given (relative to the working directory). */
const DEFAULT_DATA_DIR = '.aso-jobs';

const USAGE = `Usage:
  npm run jobs -- serve [--role all|api|worker] [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--data ${DEFAULT_DATA_DIR}] [--concurrency N]
                        [--database-url URL | --embedded-postgres DIR] [--lease-seconds ${DEFAULT_LEASE_MS / 1000}] [--blob-store s3://BUCKET/PREFIX]
                        [--open-signup] [--allow-loopback-fetch] [--allow-private-fetch] [--public-url URL] [--log]
                        [--headers-timeout-seconds ${DEFAULT_CONNECTION_LIMITS.headersTimeoutMs / 1000}] [--request-timeout-seconds ${DEFAULT_CONNECTION_LIMITS.requestTimeoutMs / 1000}] [--idle-timeout-seconds ${DEFAULT_CONNECTION_LIMITS.idleTimeoutMs / 1000}]
                        [--keep-alive-seconds ${DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs / 1000}] [--max-connections-per-address ${DEFAULT_CONNECTION_LIMITS.maxConnectionsPerAddress}]
                        [--max-uploads ${DEFAULT_UPLOAD_LIMITS.maxUploads}] [--max-uploads-per-key ${DEFAULT_UPLOAD_LIMITS.maxUploadsPerKey}]
                        [--webhook-retry-seconds ${DEFAULT_WEBHOOK_OPTIONS.retryDelaysMs.map((ms) => ms / 1000).join(',')}] [--webhook-timeout-seconds ${DEFAULT_WEBHOOK_OPTIONS.timeoutMs / 1000}]
  npm run jobs -- keys create --name <name> [--data ${DEFAULT_DATA_DIR} | --database-url URL]
  npm run jobs -- keys list [--data ${DEFAULT_DATA_DIR} | --database-url URL]
  npm run jobs -- keys revoke <key id or name> [--data ${DEFAULT_DATA_DIR} | --database-url URL]

Without a database everything lives in the data folder, for one process. DATABASE_URL (or --database-url) keeps jobs,
keys and the queue in Postgres, shared by any number of processes (--role api and --role worker); the data folder then
holds only the blobs, and every process must see the same one. --embedded-postgres DIR starts a local Postgres from
node_modules with its data in DIR. ASO_BLOB_STORE (or --blob-store) keeps inputs and assets in an S3-compatible store,
with its endpoint and credentials from the AWS variables (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_REGION), instead of the data folder.`;

/** A mistake in the command line: printed with the usage, exit code 2. */
class UsageError extends Error {}

/** A service and what must stop after it (an embedded Postgres). */
export interface RunningService extends JobService {
  /** Set when this process started a local Postgres. */
  databaseUrl?: string;
}

/** Runs one command; resolves to the exit code. `serve` resolves with the running service instead of an exit code. */
export async function runJobsCli(argv: readonly string[], io: CliIo): Promise<number | RunningService> {
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

const ROLES: readonly ServiceRole[] = ['all', 'api', 'worker'];

async function serve(args: string[], io: CliIo): Promise<RunningService> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      role: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      concurrency: { type: 'string' },
      'database-url': { type: 'string' },
      'embedded-postgres': { type: 'string' },
      'blob-store': { type: 'string' },
      'lease-seconds': { type: 'string' },
      'open-signup': { type: 'boolean' },
      'allow-loopback-fetch': { type: 'boolean' },
      'allow-private-fetch': { type: 'boolean' },
      'public-url': { type: 'string' },
      log: { type: 'boolean' },
      'headers-timeout-seconds': { type: 'string' },
      'request-timeout-seconds': { type: 'string' },
      'idle-timeout-seconds': { type: 'string' },
      'keep-alive-seconds': { type: 'string' },
      'max-connections-per-address': { type: 'string' },
      'max-uploads': { type: 'string' },
      'max-uploads-per-key': { type: 'string' },
      'webhook-retry-seconds': { type: 'string' },
      'webhook-timeout-seconds': { type: 'string' },
    },
  });
  const role = (values.role ?? 'all') as ServiceRole;
  if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}, got "${values.role}"`);
  const port = values.port === undefined ? (role === 'worker' ? undefined : DEFAULT_PORT) : integer('--port', values.port, 0, 65_535);
  const concurrency = values.concurrency === undefined ? undefined : integer('--concurrency', values.concurrency, 1, 64);
  const leaseSeconds = values['lease-seconds'] === undefined ? undefined : integer('--lease-seconds', values['lease-seconds'], 1, 3600);
  const connections = connectionFlags(values);
  const uploads: Partial<UploadLimits> = {
    maxUploads: optionalInteger('--max-uploads', values['max-uploads'], 1, 100_000),
    maxUploadsPerKey: optionalInteger('--max-uploads-per-key', values['max-uploads-per-key'], 1, 100_000),
  };
  const webhooks = webhookFlags(values['webhook-retry-seconds'], values['webhook-timeout-seconds']);
  if (values['database-url'] !== undefined && values['embedded-postgres'] !== undefined) throw new UsageError('give --database-url or --embedded-postgres, not both');
  let databaseUrl = values['database-url'] ?? (values['embedded-postgres'] === undefined ? nonEmpty(io.env?.DATABASE_URL) : undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new UsageError(`the database URL must start with postgres:// (got "${redactUrl(databaseUrl)}")`);
  const dataDir = values.data ?? DEFAULT_DATA_DIR;
  const blobStore = blobStoreFlag(values['blob-store'], io);
  let stopDatabase: (() => Promise<void>) | undefined;
  if (values['embedded-postgres'] !== undefined) {
    const { startEmbeddedPostgres } = await import('../store/embedded-postgres.ts');
    const embedded = await startEmbeddedPostgres({ dataDir: values['embedded-postgres'] });
    databaseUrl = embedded.url;
    stopDatabase = embedded.stop;
    io.out(`Embedded Postgres running with its data in ${values['embedded-postgres']}: ${databaseUrl}`);
  }
  let service: JobService;
  try {
    service = await startJobService({
      dataDir,
      databaseUrl,
      blobStore,
      role,
      port,
      host: values.host,
      concurrency,
      leaseMs: leaseSeconds === undefined ? undefined : leaseSeconds * 1000,
      openSignup: values['open-signup'] ?? false,
      allowLoopbackFetch: values['allow-loopback-fetch'] ?? false,
      allowPrivateFetch: values['allow-private-fetch'] ?? false,
      publicUrl: values['public-url'],
      logger: values.log ?? false,
      connections,
      uploads,
      webhooks,
    });
  } catch (err) {
    await stopDatabase?.();
    throw err;
  }
  const blobs = blobStore?.url ?? dataDir;
  const store = databaseUrl ? `database: ${redactUrl(databaseUrl)}, blobs: ${blobs}` : `data: ${dataDir}${blobStore ? `, blobs: ${blobs}` : ''}`;
  if (role === 'worker') io.out(`ASO job worker ${service.workerId} running (${store})${service.url ? `; health and metrics on ${service.url}` : ''}`);
  else io.out(`ASO reference job service (role ${role}) listening on ${service.url} (${store})`);
  return {
    ...service,
    ...(stopDatabase ? { databaseUrl } : {}),
    close: async () => {
      await service.close();
      await stopDatabase?.();
    },
  };
}

async function keys(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: { data: { type: 'string' }, name: { type: 'string' }, 'database-url': { type: 'string' } } });
  const databaseUrl = values['database-url'] ?? nonEmpty(io.env?.DATABASE_URL);
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') throw new UsageError(sub ? `unknown keys command "${sub}"` : 'keys needs a command: create, list or revoke');
  if (sub === 'create' && !values.name) throw new UsageError('keys create needs --name <name>');
  if (sub === 'create' && positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (sub === 'revoke' && positionals.length !== 1) throw new UsageError('keys revoke needs exactly one key id or name');
  const store = await openKeys({ dataDir: values.data ?? DEFAULT_DATA_DIR, databaseUrl });
  try {
    if (sub === 'create') {
      const { key, record } = await store.create(values.name!);
      io.out(`Created API key ${record.id} named "${record.name}".`);
      io.out(`Its webhook signing secret (GET /v1/webhooks/secret answers it too): ${record.webhookSecret}`);
      io.out('The key is shown once, on the next line; only its hash is stored.');
      io.out(key);
    } else if (sub === 'list') {
      const all = await store.list();
      if (all.length === 0) io.out('No API keys.');
      for (const r of all) io.out(`${r.id}\t${r.revokedAt ? `revoked ${r.revokedAt}` : 'active'}\tcreated ${r.createdAt}\t${r.name}`);
    } else {
      const record = await store.revoke(positionals[0]!);
      io.out(`Revoked API key ${record.id} ("${record.name}").`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

/** The connection limits the flags set (seconds on the command line); a header limit longer than the request limit is refused by name. */
function connectionFlags(values: Record<string, string | boolean | undefined>): Partial<ConnectionLimits> {
  const seconds = (flag: string, min: number): number | undefined => {
    const n = optionalInteger(`--${flag}`, values[flag] as string | undefined, min, 86_400);
    return n === undefined ? undefined : n * 1000;
  };
  const limits: Partial<ConnectionLimits> = {
    headersTimeoutMs: seconds('headers-timeout-seconds', 0),
    requestTimeoutMs: seconds('request-timeout-seconds', 0),
    idleTimeoutMs: seconds('idle-timeout-seconds', 0),
    keepAliveTimeoutMs: seconds('keep-alive-seconds', 1),
    maxConnectionsPerAddress: optionalInteger('--max-connections-per-address', values['max-connections-per-address'] as string | undefined, 0, 1_000_000),
  };
  const headers = limits.headersTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs;
  const request = limits.requestTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.requestTimeoutMs;
  if (headers > 0 && request > 0 && headers > request) {
    throw new UsageError(`--headers-timeout-seconds (${headers / 1000}) must not exceed --request-timeout-seconds (${request / 1000}): the headers are part of the request`);
  }
  return limits;
}

/** The S3 blob store `--blob-store` or `ASO_BLOB_STORE` names, checked here so that a malformed URL is a usage mistake naming its source. */
function blobStoreFlag(flag: string | undefined, io: CliIo): JobServiceOptions['blobStore'] {
  const source = flag === undefined ? 'ASO_BLOB_STORE' : '--blob-store';
  const url = flag ?? nonEmpty(io.env?.ASO_BLOB_STORE);
  if (url === undefined) return undefined;
  try {
    parseS3Location(url, source);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return { url, env: io.env ?? process.env, source };
}

/** The webhook settings the flags set: the retry delays as a comma-separated list of seconds, the time limit of one attempt. */
function webhookFlags(retries: string | undefined, timeout: string | undefined): JobServiceOptions['webhooks'] {
  const delays = retries?.split(',').map((part) => integer('--webhook-retry-seconds', part.trim(), 0, 7 * 86_400) * 1000);
  const timeoutSeconds = optionalInteger('--webhook-timeout-seconds', timeout, 1, 300);
  return { retryDelaysMs: delays, timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000 };
}

function optionalInteger(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  return raw === undefined ? undefined : integer(flag, raw, min, max);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function integer(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

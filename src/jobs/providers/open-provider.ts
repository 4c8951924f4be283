/** The hosted generators by name: the variable that holds each one's key, the one that moves its API, and its adapter. */
import { createFalProvider } from './fal-provider.ts';
import { createMeshyProvider } from './meshy-provider.ts';
import { ProviderSetupError, type Provider, type ProviderName } from './provider.ts';
import { createReplicateProvider } from './replicate-provider.ts';
import { createTripoProvider } from './tripo-provider.ts';
import type { HostedOptions, TransportOptions } from './vendor-http.ts';

/** A hosted generator. */
export type HostedName = Exclude<ProviderName, 'aso'>;

interface HostedSpec {
  keyVariable: string;
  baseVariable: string;
  /** The vendor's public API. */
  defaultBase: string;
  /** Where a key is made, for the message when it is missing. */
  keyPage: string;
  create(options: HostedOptions): Provider;
}

/** Each hosted generator. */
const HOSTED: Readonly<Record<HostedName, HostedSpec>> = {
  meshy: { keyVariable: 'MESHY_API_KEY', baseVariable: 'MESHY_BASE_URL', defaultBase: 'https://api.meshy.ai', keyPage: 'https://www.meshy.ai/settings/api', create: createMeshyProvider },
  tripo: { keyVariable: 'TRIPO_API_KEY', baseVariable: 'TRIPO_BASE_URL', defaultBase: 'https://api.tripo3d.ai', keyPage: 'https://platform.tripo3d.ai', create: createTripoProvider },
  fal: { keyVariable: 'FAL_KEY', baseVariable: 'FAL_BASE_URL', defaultBase: 'https://queue.fal.run', keyPage: 'https://fal.ai/dashboard/keys', create: createFalProvider },
  replicate: {
    keyVariable: 'REPLICATE_API_TOKEN',
    baseVariable: 'REPLICATE_BASE_URL',
    defaultBase: 'https://api.replicate.com',
    keyPage: 'https://replicate.com/account/api-tokens',
    create: createReplicateProvider,
  },
};

/**
 * The adapter of a hosted generator, with its key from the environment and its base URL from `<VENDOR>_BASE_URL`,
 * else the one a resumed task was submitted to, else the vendor's public API. A missing key names its variable.
 */
export function openHostedProvider(name: HostedName, env: Record<string, string | undefined>, transport: TransportOptions, resumedBase?: string): Provider {
  const spec = HOSTED[name];
  const key = env[spec.keyVariable]?.trim();
  if (!key) throw new ProviderSetupError(`${spec.keyVariable} is not set; --provider ${name} needs a ${name} API key in it (make one at ${spec.keyPage})`);
  const baseUrl = env[spec.baseVariable]?.trim() || resumedBase || spec.defaultBase;
  try {
    return spec.create({ ...transport, baseUrl, key });
  } catch (error) {
    throw new ProviderSetupError(`${spec.baseVariable}: ${(error as Error).message}`);
  }
}

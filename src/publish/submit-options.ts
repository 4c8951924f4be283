/** The settings of one publish, as `npm run submit` parses them from its arguments. */
import { parseArgs } from 'node:util';
import { PROVIDER_NAMES, type OptionValue, type ProviderName } from '../jobs/providers/provider.ts';
import { usageError } from './publish-error.ts';

/** How the next version number is chosen for an existing object. */
export type Bump = 'patch' | 'minor' | 'major';

/** Everything a publish can be asked to do. */
export interface SubmitOptions {
  /** The folder that holds `registry/` (the repository's top folder for a commit). */
  cwd: string;
  /** Environment: ASO_API_KEY, ASO_API_URL, REGISTRY_URL, ASO_REGISTRY_DIR, ASO_CACHE_DIR, and each provider's key and base URL. */
  env?: Record<string, string | undefined>;
  /** A local image path or an http(s) URL. */
  image?: string;
  /** Who makes the asset: this project's job API (`aso`, the default) or a hosted generator. */
  provider?: ProviderName;
  /** The model id: a catalog entry of the job API, or the vendor's model id. */
  model?: string;
  /** `--option key=value`: documented options of the vendor's model, sent with the task and recorded. */
  options?: Record<string, OptionValue>;
  object?: string;
  name?: string;
  description?: string;
  tags?: string[];
  license?: string;
  bump?: Bump;
  version?: string;
  /** The job API origin; else ASO_API_URL; else the built-in service. */
  api?: string;
  publisher?: string;
  /** Commit on a new branch (default true). */
  commit?: boolean;
  /** Continue a job that a state file remembers, instead of submitting a new one. */
  resume?: string;
  /** `<id>@<version>` to correct: a new version with fixed metadata and the same bytes. */
  correct?: string;
  reason?: string;
  /** The longest wait for the job, in milliseconds. */
  timeoutMs?: number;
  /** Stops the publish (Ctrl-C); the job's state file is kept for `--resume`. */
  signal?: AbortSignal;
  /** Where state files and the built-in service's data live; default `<cache dir>/submit`. */
  stateDir?: string;
  /** The largest asset downloaded, in bytes; default 512 MiB (`--max-asset-mb`). */
  maxAssetBytes?: number;
  /** Retries of each API call (tests make it small). */
  retries?: number;
  /** Backoff of polls and retries in milliseconds (tests make it short). */
  backoff?: { initialMs: number; maxMs: number };
  /** The longest wait a hosted generator's `Retry-After` is honoured for, in milliseconds; default 60 s (tests make it short). */
  maxRetryAfterMs?: number;
}

/** The usage text. */
export const SUBMIT_USAGE = `usage: npm run submit -- --image <path or URL> --model <id> --object <id>
         [--provider aso|meshy|tripo|fal|replicate] [--option key=value ...]
         [--name <text>] [--description <text>] [--tags a,b] [--license <SPDX>]
         [--bump patch|minor|major | --version <x.y.z>] [--api <base URL>] [--publisher <label>]
         [--timeout <seconds>] [--max-asset-mb <MiB>] [--no-commit]
       npm run submit -- --resume <job or task id> [--provider <name>] [--api <base URL>] [--timeout <seconds>] [--max-asset-mb <MiB>] [--no-commit]
       npm run submit -- --correct <id>@<version> --reason <text>
         [--name] [--description] [--tags] [--license] [--bump | --version] [--publisher] [--no-commit]
environment: ASO_API_KEY (the API key), ASO_API_URL (the job API; unset: the built-in service);
             MESHY_API_KEY, TRIPO_API_KEY, FAL_KEY, REPLICATE_API_TOKEN (a provider's key);
             MESHY_BASE_URL, TRIPO_BASE_URL, FAL_BASE_URL, REPLICATE_BASE_URL (a provider's API; default its public one)
providers: docs/providers.md`;

/** Parses the arguments of `npm run submit` (everything but `cwd`, `env` and `signal`); throws a usage PublishError. */
export function parseSubmitArgs(argv: readonly string[]): Omit<SubmitOptions, 'cwd'> & { help?: boolean } {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        image: { type: 'string' },
        provider: { type: 'string' },
        model: { type: 'string' },
        option: { type: 'string', multiple: true },
        object: { type: 'string' },
        name: { type: 'string' },
        description: { type: 'string' },
        tags: { type: 'string' },
        license: { type: 'string' },
        bump: { type: 'string' },
        version: { type: 'string' },
        api: { type: 'string' },
        publisher: { type: 'string' },
        'no-commit': { type: 'boolean' },
        resume: { type: 'string' },
        correct: { type: 'string' },
        reason: { type: 'string' },
        timeout: { type: 'string' },
        'max-asset-mb': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const str = (key: string): string | undefined => values[key] as string | undefined;
  const bump = str('bump');
  if (bump !== undefined && bump !== 'patch' && bump !== 'minor' && bump !== 'major') throw usageError(`--bump must be patch, minor or major, not "${bump}"`);
  const timeout = str('timeout');
  let timeoutMs: number | undefined;
  if (timeout !== undefined) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) throw usageError(`--timeout must be a positive number of seconds, not "${timeout}"`);
    timeoutMs = Math.round(seconds * 1000);
  }
  const maxMb = str('max-asset-mb');
  let maxAssetBytes: number | undefined;
  if (maxMb !== undefined) {
    const mb = Number(maxMb);
    if (!Number.isInteger(mb) || mb < 1) throw usageError(`--max-asset-mb must be a whole number of MiB, at least 1, not "${maxMb}"`);
    maxAssetBytes = mb * 1024 * 1024;
  }
  const tags = str('tags');
  const provider = str('provider');
  if (provider !== undefined && !(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw usageError(`--provider must be ${PROVIDER_NAMES.slice(0, -1).join(', ')} or ${PROVIDER_NAMES.at(-1)}, not "${provider}"`);
  }
  const option = values.option as string[] | undefined;
  return {
    ...(values.help ? { help: true } : {}),
    image: str('image'),
    ...(provider !== undefined ? { provider: provider as ProviderName } : {}),
    model: str('model'),
    ...(option !== undefined ? { options: parseProviderOptions(option) } : {}),
    object: str('object'),
    name: str('name'),
    description: str('description'),
    tags: tags === undefined ? undefined : parseTags(tags),
    license: str('license'),
    bump,
    version: str('version'),
    api: str('api'),
    publisher: str('publisher'),
    commit: !values['no-commit'],
    resume: str('resume'),
    correct: str('correct'),
    reason: str('reason'),
    timeoutMs,
    maxAssetBytes,
  };
}

/** `a, b,c` as `['a', 'b', 'c']`: trimmed, empty items dropped, duplicates refused. */
export function parseTags(text: string): string[] {
  const tags = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const seen = new Set<string>();
  for (const t of tags) {
    if (seen.has(t)) throw usageError(`--tags names "${t}" twice; tags must be unique`);
    seen.add(t);
  }
  return tags;
}

/**
 * `--option key=value` items as the options object sent to a provider: `true`, `false`, `null`, numbers and JSON
 * arrays, objects or quoted strings as JSON, anything else as the string it is.
 */
export function parseProviderOptions(items: readonly string[]): Record<string, OptionValue> {
  const options: Record<string, OptionValue> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    const key = eq < 0 ? '' : item.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(key)) throw usageError(`--option "${item}" must be key=value, with a key of letters, digits and _ . -`);
    if (Object.hasOwn(options, key)) throw usageError(`--option ${key} is given twice`);
    options[key] = optionValue(key, item.slice(eq + 1));
  }
  return options;
}

function optionValue(key: string, text: string): OptionValue {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (/^[[{"]/.test(text)) {
    try {
      return JSON.parse(text) as OptionValue;
    } catch (error) {
      throw usageError(`--option ${key}: the value starts like JSON but is not (${(error as Error).message})`);
    }
  }
  return text;
}

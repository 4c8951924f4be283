/** The settings of one publish, as `npm run submit` parses them from its arguments. */
import { parseArgs } from 'node:util';
import { usageError } from './publish-error.ts';

/** How the next version number is chosen for an existing object. */
export type Bump = 'patch' | 'minor' | 'major';

/** Everything a publish can be asked to do. */
export interface SubmitOptions {
  /** The folder that holds `registry/` (the repository's top folder for a commit). */
  cwd: string;
  /** Environment: ASO_API_KEY, ASO_API_URL, REGISTRY_URL, ASO_REGISTRY_DIR, ASO_CACHE_DIR. */
  env?: Record<string, string | undefined>;
  /** A local image path or an http(s) URL. */
  image?: string;
  model?: string;
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
}

/** The usage text. */
export const SUBMIT_USAGE = `usage: npm run submit -- --image <path or URL> --model <id> --object <id>
         [--name <text>] [--description <text>] [--tags a,b] [--license <SPDX>]
         [--bump patch|minor|major | --version <x.y.z>] [--api <base URL>] [--publisher <label>]
         [--timeout <seconds>] [--max-asset-mb <MiB>] [--no-commit]
       npm run submit -- --resume <job id> [--api <base URL>] [--timeout <seconds>] [--max-asset-mb <MiB>] [--no-commit]
       npm run submit -- --correct <id>@<version> --reason <text>
         [--name] [--description] [--tags] [--license] [--bump | --version] [--publisher] [--no-commit]
environment: ASO_API_KEY (the API key), ASO_API_URL (the job API; unset: the built-in service)`;

/** Parses the arguments of `npm run submit` (everything but `cwd`, `env` and `signal`); throws a usage PublishError. */
export function parseSubmitArgs(argv: readonly string[]): Omit<SubmitOptions, 'cwd'> & { help?: boolean } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        image: { type: 'string' },
        model: { type: 'string' },
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
  return {
    ...(values.help ? { help: true } : {}),
    image: str('image'),
    model: str('model'),
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

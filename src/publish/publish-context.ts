/** What every kind of publish shares: its resolved settings, its result, the publisher and the metadata flags. */
import { openRegistryBlobs, type RegistryBlobs } from '../registry/registry-blobs.ts';
import { cacheDir } from '../registry/registry-dir.ts';
import type { SignerKey } from '@aso-registry/core/log/signed-note';
import { PUBLISHER_KEY_VARIABLES, signerKeyFromEnv } from '../io/signer-key.ts';
import { gitUserName } from './git-publish.ts';
import { usageError } from './publish-error.ts';
import type { SubmitOptions } from './submit-options.ts';

/** What a successful publish made. */
export interface SubmitResult {
  id: string;
  version: string;
  /** The new version folder. */
  dir: string;
  publicationId: string;
  recordHash: string;
  /** The job the asset came from (absent for a correction). */
  jobId?: string;
  /** The branch and commit, unless `--no-commit`. */
  branch?: string;
  commit?: string;
}

/** The settings every publish resolves first. */
export interface Context {
  options: SubmitOptions;
  env: Record<string, string | undefined>;
  registryRoot: string;
  registryUrl: string;
  stateDir: string;
}

const openedBlobs = new WeakMap<Context, RegistryBlobs | undefined>();

/** The blob store of `ASO_BLOB_STORE` for this publish, opened once, or undefined when the files go into `registry/`. */
export function contextBlobs(ctx: Context): RegistryBlobs | undefined {
  if (!openedBlobs.has(ctx)) openedBlobs.set(ctx, openRegistryBlobs(ctx.env, cacheDir(ctx.env, ctx.options.cwd)));
  return openedBlobs.get(ctx);
}

/** The publisher's signing key, from `ASO_PUBLISHER_KEY` or `ASO_PUBLISHER_KEY_FILE`, or null when neither is set. */
export async function publisherSigner(env: Record<string, string | undefined>, cwd: string): Promise<SignerKey | null> {
  try {
    return await signerKeyFromEnv(env, PUBLISHER_KEY_VARIABLES, cwd);
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

/**
 * The publisher label: the name of the signing key when one is configured (a different `--publisher` is refused),
 * else `--publisher`, else git's user.name, else `unknown`.
 */
export async function publisherOf(options: SubmitOptions, signer: SignerKey | null = null): Promise<string> {
  const given = options.publisher?.trim();
  if (options.publisher !== undefined && !given) throw usageError('--publisher is empty');
  if (signer) {
    if (given !== undefined && given !== signer.name) {
      throw usageError(`--publisher ${given} is not the name of the signing key (${signer.name}+${signer.keyId}); a signed version is published under its key's name`);
    }
    return signer.name;
  }
  return given ?? (await gitUserName(options.cwd)) ?? 'unknown';
}

/** Checks the metadata flags shared by new versions and corrections. */
export function checkMetadataFlags(options: SubmitOptions): void {
  if (options.name !== undefined && options.name.trim() === '') throw usageError('--name must not be empty');
  if (options.license !== undefined && options.license.trim() === '') throw usageError('--license must not be empty (leave it out to declare none)');
}


/** A private signing key from the environment: the key itself in one variable, or the path of a file holding it in another. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type SignerKey } from '@aso-registry/core/log/signed-note';
import { parseSignerKey } from '@aso-registry/core/log/note-signer';

/** The two variables a key may come from. */
export interface KeyVariables {
  /** Holds the key (`PRIVATE+KEY+...`), e.g. `ASO_LOG_KEY`. */
  key: string;
  /** Holds the path of a file with the key, e.g. `ASO_LOG_KEY_FILE`. */
  file: string;
}

/** The log's key: `ASO_LOG_KEY` or `ASO_LOG_KEY_FILE`. */
export const LOG_KEY_VARIABLES: KeyVariables = { key: 'ASO_LOG_KEY', file: 'ASO_LOG_KEY_FILE' };
/** A publisher's key: `ASO_PUBLISHER_KEY` or `ASO_PUBLISHER_KEY_FILE`. */
export const PUBLISHER_KEY_VARIABLES: KeyVariables = { key: 'ASO_PUBLISHER_KEY', file: 'ASO_PUBLISHER_KEY_FILE' };

/**
 * The signer key the environment names, or null when neither variable is set. Throws, naming the variable (never the
 * key), when both are set, the file cannot be read or the text is not a signer key.
 */
export async function signerKeyFromEnv(env: Record<string, string | undefined>, vars: KeyVariables, cwd = process.cwd()): Promise<SignerKey | null> {
  const inline = env[vars.key]?.trim();
  const file = env[vars.file]?.trim();
  if (inline && file) throw new Error(`${vars.key} and ${vars.file} are both set; set one of them`);
  let text: string;
  let source: string;
  if (inline) {
    text = inline;
    source = vars.key;
  } else if (file) {
    source = `${vars.file} (${file})`;
    try {
      text = await readFile(resolve(cwd, file), 'utf8');
    } catch (error) {
      throw new Error(`${source}: cannot read the key file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else return null;
  try {
    return parseSignerKey(text);
  } catch (error) {
    throw new Error(`${source}: not a signer key: ${(error as Error).message}`);
  }
}

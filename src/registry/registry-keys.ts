/**
 * The public keys a registry commits: `registry/log.pub`, the verifier key of the log's checkpoints, and
 * `registry/publishers/<name>.pub`, each publisher's verifier keys (one per line; older keys stay so that what they
 * signed keeps verifying). Private keys never live in the registry.
 */
import { join } from 'node:path';
import { parsePublisherKeys, PUBLISHER_KEY_EXT, PUBLISHERS_DIR } from '@aso-registry/core/log/publication-signature';
import { isKeyName, parseVerifierKey, type VerifierKey } from '@aso-registry/core/log/signed-note';
import { entryKindProblem, listDir } from '../io/list-dir.ts';
import { formatProblem, type Problem } from './registry-model.ts';
import { readOptionalText } from '../io/read-optional-text.ts';
import { LOG_KEY_FILE } from './registry-files.ts';


/** The keys of a registry. */
export interface RegistryKeys {
  /** The log's verifier key, or null when the registry commits none. */
  logKey: VerifierKey | null;
  /** Each publisher's keys, by publisher name. */
  publishers: Map<string, VerifierKey[]>;
}

/** The path of a publisher's key file. */
export function publisherKeyPath(registryRoot: string, name: string): string {
  return join(registryRoot, PUBLISHERS_DIR, `${name}${PUBLISHER_KEY_EXT}`);
}

/** Reads and checks `log.pub` and `publishers/`; every problem names its file. */
export async function readRegistryKeys(registryRoot: string, rel: (path: string) => string): Promise<{ keys: RegistryKeys; problems: Problem[] }> {
  const problems: Problem[] = [];
  const at = (path: string, message: string, pointer?: string): void => void problems.push({ file: rel(path), ...(pointer ? { pointer } : {}), message });
  const keys: RegistryKeys = { logKey: null, publishers: new Map() };

  const logPath = join(registryRoot, LOG_KEY_FILE);
  try {
    const text = await readOptionalText(logPath);
    if (text !== null) {
      const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
      if (lines.length !== 1) at(logPath, `must hold exactly one verifier key (<name>+<key id>+<key>), found ${lines.length}`);
      else keys.logKey = parseVerifierKey(lines[0]!);
    }
  } catch (error) {
    at(logPath, (error as Error).message.replace(`${logPath}: `, '').replace(`${logPath} `, ''));
  }

  const dir = join(registryRoot, PUBLISHERS_DIR);
  for (const entry of (await listDir(dir)) ?? []) {
    const refused = entryKindProblem(entry);
    if (refused) {
      at(entry.path, refused);
      continue;
    }
    const name = entry.name.slice(0, -PUBLISHER_KEY_EXT.length);
    if (entry.kind !== 'file' || !entry.name.endsWith(PUBLISHER_KEY_EXT) || !isKeyName(name)) {
      at(entry.path, `unknown ${entry.kind === 'dir' ? 'folder' : 'file'} in ${PUBLISHERS_DIR}/; expected only <publisher>${PUBLISHER_KEY_EXT} files (a name without spaces or "+")`);
      continue;
    }
    try {
      keys.publishers.set(name, parsePublisherKeys((await readOptionalText(entry.path)) ?? '', name));
    } catch (error) {
      at(entry.path, (error as Error).message);
    }
  }
  return { keys, problems };
}

/** The registry's keys, or an error listing every problem with them (for the build and the publish tools). */
export async function loadRegistryKeys(registryRoot: string): Promise<RegistryKeys> {
  const { keys, problems } = await readRegistryKeys(registryRoot, (p) => p);
  if (problems.length) throw new Error(problems.map(formatProblem).join('\n'));
  return keys;
}

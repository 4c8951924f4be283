/**
 * C2SP tlog-checkpoints (https://c2sp.org/tlog-checkpoint): the body `<origin>\n<tree size>\n<base64 root hash>\n`
 * (then optional extension lines), served as a signed note at `/checkpoint`. A registry built without its private key
 * serves the body alone, which clients read as an unsigned checkpoint. Pure.
 */
import { decodeBase64Exact, toBase64 } from './base64.ts';
import { HASH_SIZE } from './merkle-tree.ts';
import { NoteError, openNote, parseNote, type Note, type NoteSignature, type SignerKey, type VerifierKey } from './signed-note.ts';
import { signNote } from './note-signer.ts';

/** The site path of the checkpoint (C2SP tlog-tiles puts it at the log's root). */
export const CHECKPOINT_PATH = 'checkpoint';

/** What a checkpoint commits to. */
export interface Checkpoint {
  /** The log's identity, a schema-less URL such as `registry.example.org`. */
  origin: string;
  size: number;
  rootHash: Uint8Array;
  extensions: string[];
}

/** How a checkpoint note's signatures came out against the keys a client holds. */
type CheckpointSignature =
  /** Signed by one of the keys given (each such signature verified). */
  | { state: 'verified'; by: NoteSignature[] }
  /** Signed, but by none of the keys given (or no key was given). */
  | { state: 'unverified'; by: NoteSignature[] }
  /** The bare body: the build had no private key. */
  | { state: 'unsigned' };

/** A checkpoint read from `/checkpoint`. */
export interface OpenedCheckpoint {
  checkpoint: Checkpoint;
  signature: CheckpointSignature;
}

/** A checkpoint that is not well formed. */
class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointError';
  }
}

/** The origin line of a registry's log: its URL without the scheme, e.g. `registry.example.org`. */
export function checkpointOrigin(registryUrl: string): string {
  return registryUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '');
}

/** The body of a checkpoint. */
export function formatCheckpoint(c: Checkpoint): string {
  if (c.origin === '' || c.origin.includes('\n')) throw new CheckpointError(`the origin "${c.origin}" must be one non-empty line`);
  if (!Number.isSafeInteger(c.size) || c.size < 0) throw new CheckpointError(`the tree size ${c.size} is not a whole number`);
  if (c.rootHash.length !== HASH_SIZE) throw new CheckpointError(`the root hash has ${c.rootHash.length} bytes, not ${HASH_SIZE}`);
  if (c.extensions.some((e) => e === '' || e.includes('\n'))) throw new CheckpointError('an extension line must be non-empty and a single line');
  return `${c.origin}\n${c.size}\n${toBase64(c.rootHash)}\n${c.extensions.map((e) => `${e}\n`).join('')}`;
}

/** Parses a checkpoint body; throws a {@link CheckpointError} naming the line that is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new CheckpointError('a checkpoint ends with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new CheckpointError(`a checkpoint has at least 3 lines (origin, tree size, root hash), not ${lines.length}`);
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin === '') throw new CheckpointError('line 1: the origin is empty');
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) throw new CheckpointError(`line 2: "${sizeText}" is not a tree size`);
  const rootHash = decodeBase64Exact(rootText);
  if (!rootHash || rootHash.length !== HASH_SIZE) throw new CheckpointError(`line 3: "${rootText}" is not the base64 of a ${HASH_SIZE}-byte hash`);
  if (extensions.some((e) => e === '')) throw new CheckpointError('a checkpoint has no empty line');
  return { origin, size: Number(sizeText), rootHash, extensions };
}

/** The checkpoint as a note signed by `key`, or its bare body when there is no key. */
export function checkpointNote(c: Checkpoint, key: SignerKey | null): string {
  const body = formatCheckpoint(c);
  return key ? signNote(body, [key]) : body;
}

/**
 * Takes what `/checkpoint` served apart without checking a signature: the checkpoint, and the note around it (null for
 * a bare body). Throws a {@link CheckpointError} or {@link NoteError} when it is not a checkpoint.
 */
export function parseCheckpointNote(message: string): { checkpoint: Checkpoint; note: Note | null } {
  let note;
  try {
    note = parseNote(message);
  } catch (error) {
    // A bare body has no blank line; anything else that is not a note is not a checkpoint either.
    if (!message.includes('\n\n')) return { checkpoint: parseCheckpoint(message), note: null };
    throw error;
  }
  return { checkpoint: parseCheckpoint(note.text), note };
}

/**
 * Reads what `/checkpoint` served and checks its signatures against `keys` (a client's pinned log keys). Rejects with a
 * {@link CheckpointError} or {@link NoteError} when it is not a checkpoint or a signature by one of `keys` is wrong.
 */
export async function openCheckpoint(message: string, keys: readonly VerifierKey[]): Promise<OpenedCheckpoint> {
  const { checkpoint, note } = parseCheckpointNote(message);
  if (!note) return { checkpoint, signature: { state: 'unsigned' } };
  const known = note.signatures.filter((s) => keys.some((k) => k.name === s.name && k.keyId === s.keyId));
  if (known.length === 0) return { checkpoint, signature: { state: 'unverified', by: note.signatures } };
  const opened = await openNote(message, keys);
  return { checkpoint, signature: { state: 'verified', by: opened.verified } };
}

/**
 * C2SP: a log key signs for one log, named by its origin line, so the same key over another origin is another log.
 * The sentence that says so when no verified signer's name is the checkpoint's origin, or null.
 */
export function checkpointOriginProblem(opened: OpenedCheckpoint): string | null {
  const { checkpoint, signature } = opened;
  if (signature.state !== 'verified' || signature.by.some((s) => s.name === checkpoint.origin)) return null;
  const by = signature.by[0]!;
  return `the checkpoint's origin is "${checkpoint.origin}", but the log key ${by.name}+${by.keyId} that signed it is for the origin "${by.name}"`;
}

/**
 * `npm run check -- --base <ref>`: every version folder that exists at `<ref>` must be byte-identical in the working
 * tree (a file and its Git LFS pointer count as the same), the ledger and the retractions at `<ref>` must be prefixes of the files now, and so must each publisher key
 * file, whose new keys need an endorsement (publisher-keys-since-base.ts). Uses real git.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { isLedgerPrefix, LEDGER_FILE, type PrefixResult } from '@aso-registry/core/log/ledger';
import { RETRACTIONS_FILE } from '@aso-registry/core/log/retractions';
import { lsTree, readBlob, repoLocation, resolveCommit, type TreeEntry } from '../io/git.ts';
import pLimit from 'p-limit';
import { listDir } from '../io/list-dir.ts';
import type { Problem } from './registry-model.ts';
import { readOptionalText } from '../io/read-optional-text.ts';
import { PUBLISHER_KEY_EXT, PUBLISHERS_DIR } from '@aso-registry/core/log/publication-signature';
import { publisherKeyProblems } from './publisher-keys-since-base.ts';
import { sameThroughLfs } from './same-through-lfs.ts';

/** Options of {@link checkAgainstBase}. */
export interface BaseCheckOptions {
  /** What problem paths are relative to; default the folder that holds `registry/`. */
  repoRoot?: string;
  /** Files hashed at once; default `os.availableParallelism()`. */
  concurrency?: number;
}

/** What the comparison found: the problems, and how much was compared. */
export interface BaseCheck {
  problems: Problem[];
  /** The commit `ref` resolved to. */
  commit: string;
  /** Version folders at the base, and their files, found unchanged or not. */
  versions: number;
  /** The versions at the base, as `<id>@<version>`: every other version of the tree is new. */
  versionKeys: Set<string>;
  files: number;
  /** Lines of the ledger at the base, or null when it had none. */
  ledgerLines: number | null;
}

const NEVER_CHANGES = 'is published and never changes (publish a new version instead)';
const APPEND_ONLY = 'append-only (add lines at the end; never edit, remove or reorder one)';

/**
 * Compares the registry folder `registryRoot` with the same folder at git `ref`. Throws a `GitError` when the folder
 * is not in a git repository or the ref is unknown; returns one problem per removed version, per changed, removed
 * or added file of a published version, and per rewritten line of the ledger or the retractions.
 */
export async function checkAgainstBase(registryRoot: string, ref: string, opts: BaseCheckOptions = {}): Promise<BaseCheck> {
  const root = resolve(registryRoot);
  const repoRoot = resolve(opts.repoRoot ?? join(root, '..'));
  const rel = (path: string): string => relative(repoRoot, path).split(sep).join('/') || '.';
  const { top, prefix } = await repoLocation(root);
  const commit = await resolveCommit(top, ref);
  const entries = await lsTree(top, commit, [`${prefix}objects`, `${prefix}${LEDGER_FILE}`, `${prefix}${RETRACTIONS_FILE}`, `${prefix}${PUBLISHERS_DIR}`]);
  const problems: Problem[] = [];
  const at = (path: string, message: string, pointer?: string): void => void problems.push({ file: rel(path), ...(pointer ? { pointer } : {}), message });

  // Group the base's files by version folder: objects/<id>/versions/<version>/<file...>.
  const versions = new Map<string, { id: string; version: string; files: Map<string, TreeEntry> }>();
  const special = new Map<string, TreeEntry>();
  const keyFiles = new Map<string, TreeEntry>();
  for (const e of entries) {
    if (!e.path.startsWith(prefix)) continue;
    const inside = e.path.slice(prefix.length);
    if (inside === LEDGER_FILE || inside === RETRACTIONS_FILE) {
      special.set(inside, e);
      continue;
    }
    const parts = inside.split('/');
    if (parts[0] === PUBLISHERS_DIR) {
      const file = parts[1] ?? '';
      if (parts.length === 2 && file.length > PUBLISHER_KEY_EXT.length && file.endsWith(PUBLISHER_KEY_EXT) && e.mode.startsWith('100')) keyFiles.set(file.slice(0, -PUBLISHER_KEY_EXT.length), e);
      continue;
    }
    if (parts.length < 5 || parts[0] !== 'objects' || parts[2] !== 'versions') continue;
    const [, id = '', , version = ''] = parts;
    const key = `${id}@${version}`;
    const v = versions.get(key) ?? { id, version, files: new Map() };
    v.files.set(parts.slice(4).join('/'), e);
    versions.set(key, v);
  }

  const limit = pLimit(opts.concurrency ?? availableParallelism());
  let files = 0;
  const results = [...versions.values()].map(async (v) => {
    const found: Array<{ path: string; message: string }> = [];
    const dir = join(root, 'objects', v.id, 'versions', v.version);
    const key = `${v.id}@${v.version}`;
    const kind = await lstat(dir).catch(() => null);
    if (!kind || !kind.isDirectory()) {
      const what = kind ? 'replaced by something that is not a folder' : 'removed';
      found.push({ path: dir, message: `${key} was ${what} since ${ref}; published versions are never removed (retract it in ${RETRACTIONS_FILE} instead)` });
      return found;
    }
    const now = await walk(dir);
    const checks = [...v.files].map(async ([name, entry]) => {
      files++;
      const path = join(dir, ...name.split('/'));
      const current = now.get(name);
      if (current === undefined) return { path, message: `removed since ${ref}; ${key} ${NEVER_CHANGES}` };
      if (current !== 'file' || !entry.mode.startsWith('100')) return { path, message: `changed since ${ref} (it is no longer the same kind of file); ${key} ${NEVER_CHANGES}` };
      const same = await limit(async () => (await blobId(path, entry.oid.length === 64 ? 'sha256' : 'sha1')) === entry.oid || (await sameThroughLfs(top, entry, path)));
      return same ? null : { path, message: `changed since ${ref}; ${key} ${NEVER_CHANGES}` };
    });
    for (const r of await Promise.all(checks)) if (r) found.push(r);
    for (const name of now.keys()) {
      if (!v.files.has(name)) found.push({ path: join(dir, ...name.split('/')), message: `added since ${ref} to ${key}, which ${NEVER_CHANGES}` });
    }
    return found;
  });
  for (const found of await Promise.all(results)) for (const p of found) at(p.path, p.message);

  let ledgerLines: number | null = null;
  let baseLedger: string | null = null;
  for (const name of [LEDGER_FILE, RETRACTIONS_FILE]) {
    const entry = special.get(name);
    if (!entry) continue;
    const path = join(root, name);
    const older = (await readBlob(top, entry.oid)).toString('utf8');
    if (name === LEDGER_FILE) {
      baseLedger = older;
      ledgerLines = older === '' ? 0 : older.replace(/\n$/, '').split('\n').length;
    }
    let newer: string | null;
    try {
      newer = await readOptionalText(path);
    } catch (error) {
      at(path, (error as Error).message.replace(`${path} `, ''));
      continue;
    }
    if (newer === null) {
      at(path, `removed since ${ref}; the file is ${APPEND_ONLY}`);
      continue;
    }
    const result = isLedgerPrefix(older, newer);
    if (!result.ok) at(path, prefixMessage(result, ref), `line ${result.line}`);
  }

  const baseKeyFiles = new Map<string, string>();
  for (const [name, entry] of keyFiles) baseKeyFiles.set(name, (await readBlob(top, entry.oid)).toString('utf8'));
  for (const p of await publisherKeyProblems(root, ref, baseKeyFiles, baseLedger)) at(p.path, p.message, p.pointer);
  return { problems, commit, versions: versions.size, versionKeys: new Set(versions.keys()), files, ledgerLines };
}

function prefixMessage(result: PrefixResult, ref: string): string {
  if (result.kind === 'removed') return `removed since ${ref}; the file is ${APPEND_ONLY}`;
  if (result.kind === 'moved') return `moved since ${ref} (that line is now line ${result.movedTo}); the file is ${APPEND_ONLY}`;
  return `changed since ${ref}; the file is ${APPEND_ONLY}`;
}

/** Every entry under `dir`, by path relative to it (with `/`): plain files as `file`, anything else by its kind. */
async function walk(dir: string, base = ''): Promise<Map<string, 'file' | 'symlink' | 'other'>> {
  const out = new Map<string, 'file' | 'symlink' | 'other'>();
  for (const entry of (await listDir(dir)) ?? []) {
    const name = base ? `${base}/${entry.name}` : entry.name;
    if (entry.kind === 'dir') for (const [n, k] of await walk(entry.path, name)) out.set(n, k);
    else out.set(name, entry.kind);
  }
  return out;
}

/** The git object id a file's exact bytes would have as a blob (no filters applied). */
async function blobId(path: string, algorithm: 'sha1' | 'sha256'): Promise<string> {
  const { size } = await lstat(path);
  const hash = createHash(algorithm).update(`blob ${size}\0`);
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

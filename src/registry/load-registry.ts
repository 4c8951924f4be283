/** Reads `registry/` and checks every rule of DESIGN §4 and §10, collecting all problems in one pass. */
import { lstat } from 'node:fs/promises';
import { readRegistryJson } from './read-registry-json.ts';
import { lockPath as lockName } from '../io/file-lock.ts';
import { availableParallelism } from 'node:os';
import { dirname, relative, resolve, sep } from 'node:path';
import { compatibilityReport, compatibleRuntimes } from '@aso-registry/core/format/compatibility';
import { formatCount } from '@aso-registry/core/documents/format-count';
import type { GltfInventory, GltfNotes } from '@aso-registry/core/format/gltf-inventory';
import { LEDGER_FILE } from '@aso-registry/core/log/ledger';
import { latestNotRetracted } from '@aso-registry/core/format/latest';
import { RETRACTIONS_FILE, type Retracted } from '@aso-registry/core/log/retractions';
import type { World } from '@aso-registry/core/format/types';
import { sortHistory } from '@aso-registry/core/format/version';
import { caseCollisions } from '@aso-registry/core/format/folded-name';
import { checkVersion, noneVerified, readError, type GltfFileValidator, type ImageFileChecker, type VersionCheck, type VersionCheckContext } from './check-version.ts';
import { worldProblems } from './check-world.ts';
import { withGltfValidation, type GltfValidationOptions } from './gltf-validation-threads.ts';
import { hashSmallFileWhole, type FileHasher } from '../io/hash-file.ts';
import { checkLedgerFile, type KnownVersion, type LedgerState } from './check-ledger-file.ts';
import pLimit from 'p-limit';
import { entryKindProblem, listDir, type DirEntry } from '../io/list-dir.ts';
import { formatProblem, type Problem, type Registry, type RegistryVersion } from './registry-model.ts';
import { checkRetractionsFile } from './check-retractions-file.ts';
import { readRegistryKeys, type RegistryKeys } from './registry-keys.ts';
import { LOG_KEY_FILE } from './registry-files.ts';
import { PUBLISHERS_DIR } from '@aso-registry/core/log/publication-signature';
import type { RegistryBlobs } from './registry-blobs.ts';

export interface LoadOptions {
  /** The origin the registry is published at, e.g. `registryUrl()` from registry-url.ts. */
  registryUrl: string;
  /** Files hashed at once; default `os.availableParallelism()`. */
  concurrency?: number;
  /** Run gltf-validator on glTF and GLB files; default true. */
  validateGltf?: boolean;
  /** What problem paths are relative to; default the folder that holds `registry/`. */
  repoRoot?: string;
  /** How files are hashed; default `hashSmallFileWhole`, which keeps a small file's bytes for the checks after it (a cache can wrap it). */
  hashFile?: FileHasher;
  /** How glTF files are validated once hashed; default gltf-validator on every file (a cache can key it by hash). */
  validateGltfFile?: GltfFileValidator;
  /** `checkRegistry` only: the threads gltf-validator runs on; default those of `ASO_VALIDATION_THREADS` (gltf-validation-threads.ts). */
  gltfThreads?: GltfValidationOptions;
  /** How image files are checked once hashed; default sharp's header of every file (a cache can key it by hash). */
  checkImageFile?: ImageFileChecker;
  /** True for a version that must carry a publisher signature (`check --require-signatures`); default none. */
  mustSign?: (id: string, version: string) => boolean;
  /** The blob store of `ASO_BLOB_STORE`, where representations missing from `representations/` are looked for. */
  blobs?: RegistryBlobs;
  /** Every file's content must be read (the build): no Git LFS pointer, stored blobs downloaded; default false. */
  needContent?: boolean;
  /** Download and hash stored blobs even when the content is not needed (`check --deep`); default false. */
  deep?: boolean;
}

/** What the check says about one file beyond its problems: which runtimes can load it and, for glTF, what it holds. */
export interface FileReport {
  /** The file, relative to the repository as problems name it. */
  file: string;
  /** `<id>@<version>`. */
  version: string;
  representation: string;
  /** The runtimes that can load it (empty when none can). */
  runtimes: string[];
  /** The named report line, `<rep>/<runtime>: <report> | ...`, as agent.json and the API write it. */
  compatibility: string;
  /** For glTF: the inventory and gltf-validator's warnings and infos. */
  gltf?: { inventory: GltfInventory; notes: GltfNotes };
}

/** What `npm run check` and the build report. */
export interface CheckResult {
  ok: boolean;
  /** One line per problem, `<file>: <pointer or "file">: <message>`. */
  problems: string[];
  summary: Registry['stats'];
  /** Every glTF file and every file no runtime can load, in tree order. */
  files: FileReport[];
  /** The ledger's checkpoint, present when the registry keeps a ledger. */
  ledger?: { size: number; head: string | null };
  /** How many versions are retracted, present when some are. */
  retracted?: number;
}

type Stats = Registry['stats'];

/** What `loadRegistry` returns: the checked tree, every problem, the ledger and the retractions. */
export interface LoadedRegistry {
  registry: Registry;
  problems: Problem[];
  /** The checked `ledger.jsonl`, or null when the registry keeps none. */
  ledger: LedgerState | null;
  /** Retracted versions by `<id>@<version>`, from `retractions.jsonl`. */
  retracted: Map<string, Retracted>;
  /** The log's public key and the publishers' keys (`log.pub`, `publishers/`). */
  keys: RegistryKeys;
}

const ROOT_ENTRIES = `objects/, worlds/, ${PUBLISHERS_DIR}/, ${LEDGER_FILE}, ${RETRACTIONS_FILE} and ${LOG_KEY_FILE}`;

/** Reads and checks the registry tree at `root` (the `registry/` folder). */
export async function loadRegistry(root: string, opts: LoadOptions): Promise<LoadedRegistry> {
  const rootDir = resolve(root);
  const repoRoot = resolve(opts.repoRoot ?? dirname(rootDir));
  const rel = (path: string): string => relative(repoRoot, path).split(sep).join('/') || '.';
  const problems: Problem[] = [];
  const at = (path: string, message: string): void => void problems.push({ file: rel(path), message });
  // One at a time: a ledger that misses every version has a problem per version, too many to spread into one push.
  const report = (found: readonly Problem[]): void => {
    for (const p of found) problems.push(p);
  };
  const stats: Stats = { objects: 0, versions: 0, files: 0, bytes: 0, byPointer: 0, bySize: 0 };
  const registry: Registry = { root: rootDir, registryUrl: opts.registryUrl, objects: [], worlds: [], stats };
  const retracted = new Map<string, Retracted>();
  let ledger: LedgerState | null = null;
  let keys: RegistryKeys = { logKey: null, publishers: new Map() };

  const kind = await lstat(rootDir).catch(() => null);
  if (!kind) at(rootDir, 'the registry folder does not exist');
  else if (kind.isSymbolicLink()) at(rootDir, 'is a symbolic link; the registry folder must be a plain folder');
  else if (!kind.isDirectory()) at(rootDir, 'is not a folder');
  if (problems.length) return { registry, problems, ledger, retracted, keys };

  const concurrency = opts.concurrency ?? availableParallelism();
  const files = pLimit(Math.max(1, concurrency));
  const folders = pLimit(Math.max(8, concurrency * 2));
  const ctx: VersionCheckContext = { registryUrl: opts.registryUrl, rel, files, hashFile: opts.hashFile ?? hashSmallFileWhole, validateGltf: opts.validateGltf ?? true, ...(opts.validateGltfFile ? { validateGltfFile: opts.validateGltfFile } : {}), ...(opts.checkImageFile ? { checkImageFile: opts.checkImageFile } : {}), ...(opts.blobs ? { blobs: opts.blobs } : {}), needContent: opts.needContent ?? false, deep: opts.deep ?? false };

  let objectsDir: string | undefined;
  let worldsDir: string | undefined;
  let hasLedger = false;
  let hasRetractions = false;
  for (const entry of (await listDir(rootDir)) ?? []) {
    const refused = entryKindProblem(entry);
    if (refused) at(entry.path, refused);
    else if (entry.kind === 'dir' && entry.name === 'objects') objectsDir = entry.path;
    else if (entry.kind === 'dir' && entry.name === 'worlds') worldsDir = entry.path;
    else if (entry.kind === 'file' && entry.name === LEDGER_FILE) hasLedger = true;
    // The lock of an append in progress (an empty folder, which git never records).
    else if (entry.kind === 'dir' && entry.name === lockName(LEDGER_FILE)) continue;
    else if (entry.kind === 'file' && entry.name === RETRACTIONS_FILE) hasRetractions = true;
    else if ((entry.kind === 'file' && entry.name === LOG_KEY_FILE) || (entry.kind === 'dir' && entry.name === PUBLISHERS_DIR)) continue;
    else at(entry.path, `unknown ${entry.kind === 'dir' ? 'folder' : 'file'} in the registry folder; expected only ${ROOT_ENTRIES}`);
  }

  const read = await readRegistryKeys(rootDir, rel);
  report(read.problems);
  keys = read.keys;
  // Every publication record's signature is checked against the publishers' keys.
  ctx.signatures = { publishers: keys.publishers, ...(opts.mustSign ? { mustSign: opts.mustSign } : {}) };

  const objectEntries = objectsDir ? ((await listDir(objectsDir)) ?? []) : [];
  for (const c of caseCollisions(objectEntries.map((e) => e.name))) {
    at(objectEntries.find((e) => e.name === c.name)!.path, `differs from objects/${c.first} only by case or Unicode form; a case-insensitive file system or host holds them as one folder`);
  }
  const listings = await Promise.all(objectEntries.map((entry) => folders(() => listObject(entry, rel))));
  const found = listings.flatMap((l) => l.versions);
  // Start every check at once (the limits keep the pace), then take the results in tree order.
  const checks = found.map((v) =>
    folders(() => checkVersion(v.dir, v, ctx)).catch(
      (error: unknown): VersionCheck => ({ problems: [{ file: rel(v.dir), message: readError(error) }], verified: noneVerified() }),
    ),
  );
  const byObject = new Map<string, RegistryVersion[]>();
  const published: KnownVersion[] = [];
  let next = 0;
  for (const listing of listings) {
    report(listing.problems);
    for (const v of listing.versions) {
      const result = await checks[next++]!;
      report(result.problems);
      stats.files += result.verified.files;
      stats.bytes += result.verified.bytes;
      stats.byPointer += result.verified.byPointer;
      stats.bySize += result.verified.bySize;
      published.push({ id: v.id, version: v.version, ...(result.version ? { publication: result.version.publication } : {}) });
      if (!result.version) continue;
      const list = byObject.get(v.id) ?? [];
      list.push(result.version);
      byObject.set(v.id, list);
    }
  }

  if (hasLedger) {
    const checked = await checkLedgerFile(rootDir, published, rel);
    report(checked.problems);
    ledger = checked.ledger;
  }
  if (hasRetractions) {
    const checked = await checkRetractionsFile(rootDir, published, rel);
    report(checked.problems);
    for (const [key, r] of checked.retracted) retracted.set(key, r);
  }

  for (const [id, versions] of [...byObject].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sorted = sortHistory(versions.map((v) => ({ version: v.version, createdAt: v.manifest.createdAt, v }))).map((e) => e.v);
    const latest = latestNotRetracted(
      sorted.map((v) => v.version),
      (version) => retracted.has(`${id}@${version}`),
    );
    registry.objects.push({ id, versions: sorted, latest: latest! });
  }
  stats.objects = registry.objects.length;
  stats.versions = registry.objects.reduce((n, o) => n + o.versions.length, 0);

  const known = new Set(found.map((v) => `${v.id}@${v.version}`));
  const exists = (id: string, version: string): boolean => known.has(`${id}@${version}`);
  for (const entry of worldsDir ? ((await listDir(worldsDir)) ?? []) : []) {
    const refused = entryKindProblem(entry);
    if (refused) {
      at(entry.path, refused);
      continue;
    }
    if (entry.kind !== 'file' || !entry.name.endsWith('.json')) {
      at(entry.path, `unknown ${entry.kind === 'dir' ? 'folder' : 'file'} in worlds/; expected only <world-id>.json files`);
      continue;
    }
    const parsed = await readRegistryJson(entry.path).catch((error: unknown) => ({ error: readError(error), pointer: undefined }));
    if ('error' in parsed) {
      problems.push({ file: rel(entry.path), ...(parsed.pointer ? { pointer: parsed.pointer } : {}), message: parsed.error });
      continue;
    }
    const found = worldProblems(parsed.value, entry.name.slice(0, -'.json'.length), exists);
    for (const p of found) problems.push({ file: rel(entry.path), ...(p.pointer ? { pointer: p.pointer } : {}), message: p.message });
    if (found.length === 0) registry.worlds.push(parsed.value as World);
  }

  return { registry, problems, ledger, retracted, keys };
}

/** A version folder found in the tree: the object and version folder names and its path. */
interface FoundVersion {
  id: string;
  version: string;
  dir: string;
}

/** Lists one entry of `objects/`: its version folders, and what does not belong there. */
async function listObject(entry: DirEntry, rel: (path: string) => string): Promise<{ versions: FoundVersion[]; problems: Problem[] }> {
  const problems: Problem[] = [];
  const versions: FoundVersion[] = [];
  const refuse = (path: string, message: string): void => void problems.push({ file: rel(path), message });
  const refused = entryKindProblem(entry);
  if (refused) refuse(entry.path, refused);
  else if (entry.kind !== 'dir') refuse(entry.path, 'unknown file in objects/; expected only object folders');
  if (problems.length) return { versions, problems };

  let versionsDir: string | undefined;
  for (const e of (await listDir(entry.path)) ?? []) {
    const why = entryKindProblem(e);
    if (why) refuse(e.path, why);
    else if (e.kind === 'dir' && e.name === 'versions') versionsDir = e.path;
    else refuse(e.path, `unknown ${e.kind === 'dir' ? 'folder' : 'file'} in an object folder; expected only versions/`);
  }
  for (const e of versionsDir ? ((await listDir(versionsDir)) ?? []) : []) {
    const why = entryKindProblem(e);
    if (why) refuse(e.path, why);
    else if (e.kind !== 'dir') refuse(e.path, 'unknown file in versions/; expected only version folders');
    else versions.push({ id: entry.name, version: e.name, dir: e.path });
  }
  for (const c of caseCollisions(versions.map((v) => v.version))) {
    refuse(versions.find((v) => v.version === c.name)!.dir, `differs from versions/${c.first} only by case; a case-insensitive file system or host holds them as one folder, so two versions may not differ only by case`);
  }
  if (versions.length === 0 && problems.length === 0) refuse(entry.path, 'holds no version (expected versions/<version>/aso.object.json)');
  return { versions, problems };
}

/**
 * Loads the registry and sums it up for `npm run check`; glTF files are validated on threads of their own (see
 * gltf-validation-threads.ts) unless `opts` says how to validate them.
 */
export async function checkRegistry(root: string, opts: LoadOptions): Promise<CheckResult> {
  const own = !opts.validateGltfFile && opts.validateGltf !== false;
  const { registry, problems, ledger, retracted } = own
    ? await withGltfValidation(opts.gltfThreads, (validation) => loadRegistry(root, { ...opts, validateGltfFile: validation.validate }))
    : await loadRegistry(root, opts);
  const repoRoot = resolve(opts.repoRoot ?? dirname(resolve(root)));
  return {
    ok: problems.length === 0,
    problems: problems.map(formatProblem),
    summary: registry.stats,
    files: fileReports(registry, (path) => relative(repoRoot, path).split(sep).join('/')),
    ...(ledger ? { ledger: { size: ledger.size, head: ledger.head } } : {}),
    ...(retracted.size ? { retracted: retracted.size } : {}),
  };
}

/**
 * `registry OK: 5 objects, 8 versions, 21 files, 1,234,567 bytes verified`, and what was checked without its content:
 * `; 3 files by their Git LFS pointers` and `; 2 files by their size in the blob store (--deep hashes them)`.
 */
export function formatSummary(summary: Stats): string {
  const n = (count: number, word: string): string => `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`;
  const pointers = summary.byPointer ? `; ${n(summary.byPointer, 'file')} by ${summary.byPointer === 1 ? 'its Git LFS pointer' : 'their Git LFS pointers'}, without the content` : '';
  const sized = summary.bySize ? `; ${n(summary.bySize, 'file')} by ${summary.bySize === 1 ? 'its' : 'their'} size in the blob store (--deep downloads and hashes them)` : '';
  return `registry OK: ${n(summary.objects, 'object')}, ${n(summary.versions, 'version')}, ${n(summary.files, 'file')}, ${n(summary.bytes, 'byte')} verified${pointers}${sized}`;
}

/** The report of every glTF file and every file that no runtime can load. */
function fileReports(registry: Registry, rel: (path: string) => string): FileReport[] {
  const out: FileReport[] = [];
  for (const object of registry.objects) {
    for (const v of object.versions) {
      for (const f of v.files) {
        const rep = { ...f.rep, gltf: f.gltf?.inventory ?? null };
        const runtimes = compatibleRuntimes(rep);
        if (!f.gltf && runtimes.length > 0) continue;
        out.push({
          file: rel(f.path),
          version: `${v.id}@${v.version}`,
          representation: f.rep.id,
          runtimes,
          compatibility: compatibilityReport(rep, true),
          ...(f.gltf ? { gltf: f.gltf } : {}),
        });
      }
    }
  }
  return out;
}

/** Writes the sample registry: checks the catalogue, refuses to touch published versions unless forced, then writes each version atomically. */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';
import type { World } from '@aso-registry/core/format/types';
import { SAMPLE_VERSIONS, SAMPLE_WORLDS } from './sample-catalog.ts';
import { assembleVersion, jsonBytes, type AssembledVersion, type SampleVersion } from './sample-version.ts';

/** Options of `makeSampleRegistry`. */
export interface MakeOptions {
  /** The `registry/` folder to write into. */
  root: string;
  /** Replace version folders that exist already. */
  force?: boolean;
  registryUrl?: string;
  versions?: SampleVersion[];
  worlds?: World[];
  /** Progress, one line per version. */
  log?: (line: string) => void;
}

/** What was written. */
export interface MadeRegistry {
  versions: AssembledVersion[];
  worlds: string[];
}

/** Thrown when a version folder exists and `force` is not set; nothing has been written. */
export class PublishedVersionError extends Error {
  constructor(readonly folders: string[]) {
    super(
      `refusing to overwrite ${folders.length === 1 ? 'a published version' : `${folders.length} published versions`} ` +
        `(published versions never change; pass --force to regenerate the sample):\n${folders.map((f) => `  ${f}`).join('\n')}`,
    );
    this.name = 'PublishedVersionError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Mistakes in the catalogue itself: duplicates, malformed UUIDs, and references to versions or publications that do not exist. */
function catalogProblems(versions: readonly SampleVersion[], worlds: readonly World[]): string[] {
  const problems: string[] = [];
  const byKey = new Map<string, SampleVersion>();
  for (const v of versions) {
    const key = `${v.id}@${v.version}`;
    if (byKey.has(key)) problems.push(`${key}: declared twice`);
    byKey.set(key, v);
    const uuids = { publicationId: v.publication.publicationId, runId: v.provenance.runId, ...v.assets };
    for (const [field, value] of Object.entries(uuids)) {
      if (!UUID.test(value)) problems.push(`${key}: ${field} "${value}" is not a lowercase UUID`);
    }
  }
  for (const v of versions) {
    const c = v.provenance.correction;
    if (!c) continue;
    const source = byKey.get(`${c.sourceObject.id}@${c.sourceObject.version}`);
    if (!source) problems.push(`${v.id}@${v.version}: correction.sourceObject ${c.sourceObject.id}@${c.sourceObject.version} is not in the sample`);
    else if (source.publication.publicationId !== c.sourcePublicationId) {
      problems.push(`${v.id}@${v.version}: correction.sourcePublicationId is not the publication of ${c.sourceObject.id}@${c.sourceObject.version}`);
    }
  }
  for (const w of worlds) {
    for (const o of w.objects) {
      if (!byKey.has(`${o.id}@${o.version}`)) problems.push(`worlds/${w.id}.json: ${o.id}@${o.version} is not in the sample`);
    }
  }
  return problems;
}

/** Generates every sample version and world under `options.root`. */
export async function makeSampleRegistry(options: MakeOptions): Promise<MadeRegistry> {
  const versions = options.versions ?? SAMPLE_VERSIONS;
  const worlds = options.worlds ?? SAMPLE_WORLDS;
  const registryUrl = options.registryUrl ?? DEFAULT_REGISTRY_URL;
  const log = options.log ?? (() => {});
  const problems = catalogProblems(versions, worlds);
  if (problems.length) throw new Error(`the sample catalogue is inconsistent:\n${problems.map((p) => `  ${p}`).join('\n')}`);

  const existing = versions
    .map((v) => join(options.root, 'objects', v.id, 'versions', v.version))
    .filter((dir) => existsSync(dir));
  if (existing.length && !options.force) throw new PublishedVersionError(existing);

  // Make and check everything before the first write, so a failure leaves the tree as it was.
  const assembled: AssembledVersion[] = [];
  for (const v of versions) {
    const a = await assembleVersion(v, registryUrl);
    assembled.push(a);
    log(`made ${v.id}@${v.version}`);
  }
  for (const a of assembled) await writeVersion(options.root, a, options.force ?? false);
  const written: string[] = [];
  await mkdir(join(options.root, 'worlds'), { recursive: true });
  for (const w of worlds) {
    const file = join(options.root, 'worlds', `${w.id}.json`);
    await writeFile(file, jsonBytes({ id: w.id, name: w.name, objects: w.objects.map((o) => ({ id: o.id, version: o.version })) }));
    written.push(file);
  }
  return { versions: assembled, worlds: written };
}

/** Writes a version into a hidden sibling folder, then renames it into place (replacing an old one only when it was allowed to exist). */
async function writeVersion(root: string, a: AssembledVersion, force: boolean): Promise<void> {
  const final = join(root, a.dir);
  const tmp = join(dirname(final), `.${basename(final)}.tmp-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(join(tmp, 'representations'), { recursive: true });
  for (const f of a.files) await writeFile(join(tmp, relative(a.dir, f.path)), f.file.bytes);
  await writeFile(join(tmp, 'aso.object.json'), a.manifestBytes);
  await writeFile(join(tmp, 'publication.json'), a.publicationBytes);
  if (force) await rm(final, { recursive: true, force: true });
  try {
    await rename(tmp, final);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw new Error(`${final}: could not be written (${(error as Error).message})`);
  }
}

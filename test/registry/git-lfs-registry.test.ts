/**
 * A registry whose representation files are tracked by real Git LFS: a clone that holds only the pointers is checked
 * against the manifests without the content, a wrong pointer is refused, the build says to run `git lfs pull`, and
 * after it the build publishes the original bytes. New versions are written as files that LFS then tracks.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { runNewVersion } from '../../scripts/new-version.ts';
import { parseLfsPointer } from '@aso-registry/core/format/lfs-pointer';
import { buildSite, repoRoot } from '../support/build-site.ts';

const run = promisify(execFile);
const ORIGIN = 'https://registry.example.org';
// No system or user configuration: the repositories get Git LFS's filters from their own config alone.
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
const env = { ...GIT_ENV, ASO_REGISTRY_DIR: '', REGISTRY_URL: ORIGIN };

let work: string;
let origin: string;
let clone: string;
/** The representation files of the sample registry, relative to the repository, and their bytes. */
const originals = new Map<string, Buffer>();

const git = async (cwd: string, ...args: string[]): Promise<string> => (await run('git', args, { cwd, env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 })).stdout;

async function representationFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, 'registry', 'objects'), { recursive: true, withFileTypes: true })) {
    if (e.isFile() && e.parentPath.endsWith(`${sep}representations`)) out.push(relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
  }
  return out.sort();
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-lfs-'));
  origin = join(work, 'origin');
  await cp(join(repoRoot, 'registry'), join(origin, 'registry'), { recursive: true });
  await git(origin, 'init', '-q', '-b', 'main');
  for (const [k, v] of [['user.name', 'LFS Test'], ['user.email', 'lfs@registry.test'], ['commit.gpgsign', 'false']]) await git(origin, 'config', k!, v!);
  await git(origin, 'lfs', 'install', '--local');
  await writeFile(join(origin, '.gitattributes'), 'registry/objects/**/representations/** filter=lfs diff=lfs merge=lfs -text\n');
  await git(origin, 'add', '-A');
  await git(origin, 'commit', '-q', '-m', 'Sample registry with its files in Git LFS');
  for (const file of await representationFiles(origin)) originals.set(file, await readFile(join(origin, file)));

  clone = join(work, 'clone');
  await run('git', ['clone', '-q', `file://${origin}`, clone], { env: { ...GIT_ENV, GIT_LFS_SKIP_SMUDGE: '1' } });
  for (const [k, v] of [['user.name', 'LFS Test'], ['user.email', 'lfs@registry.test'], ['commit.gpgsign', 'false']]) await git(clone, 'config', k!, v!);
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a registry in Git LFS', () => {
  it('commits the representation files as LFS objects', async () => {
    const tracked = (await git(origin, 'lfs', 'ls-files', '-n')).trim().split('\n').sort();
    expect(tracked).toEqual([...originals.keys()]);
    expect(originals.size).toBeGreaterThan(5);
  });

  it('checks a clone that holds only the pointers against the manifests, without the content', async () => {
    for (const file of originals.keys()) expect(parseLfsPointer(await readFile(join(clone, file))), file).not.toBeNull();
    const out = await runCheck([], env, clone);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`; ${originals.size} files by their Git LFS pointers, without the content`);
    const base = await runCheck(['--base', 'origin/main'], env, clone);
    expect(base.stderr).toBe('');
    expect(base.code).toBe(0);
  });

  it('refuses a pointer that disagrees with its manifest, naming the file', async () => {
    const file = [...originals.keys()].find((f) => f.endsWith('.glb'))!;
    const path = join(clone, file);
    const pointer = await readFile(path, 'utf8');
    const size = parseLfsPointer(Buffer.from(pointer))!.size;
    try {
      await writeFile(path, pointer.replace(`size ${size}`, `size ${size + 1}`));
      const out = await runCheck([], env, clone);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(`${file}: file: is a Git LFS pointer to other content than aso.object.json declares`);
      expect(out.stderr).toContain(`${size + 1} bytes; the manifest says`);
    } finally {
      await writeFile(path, pointer);
    }
  });

  it('stops the build on a pointer with the command that fetches the content, then publishes the original bytes', async () => {
    const failed = await buildSite({ outDir: join(work, 'site-pointers', 'dist'), registryDir: join(clone, 'registry'), registryUrl: ORIGIN });
    expect(failed.code).not.toBe(0);
    const first = [...originals.keys()][0]!;
    expect(failed.stderr).toContain(`${first} (and ${originals.size - 1} more files): is a Git LFS pointer, not the file's content: run \`git lfs pull\``);

    await git(clone, 'lfs', 'install', '--local');
    await git(clone, 'lfs', 'pull');
    const base = await runCheck(['--base', 'origin/main'], env, clone);
    expect(base.stderr).toBe('');
    expect(base.stdout).not.toContain('Git LFS pointers');

    const outDir = join(work, 'site', 'dist');
    const built = await buildSite({ outDir, registryDir: join(clone, 'registry'), registryUrl: ORIGIN });
    expect(built.stderr).not.toContain('problem');
    expect(built.code).toBe(0);
    for (const [file, bytes] of originals) {
      const published = await readFile(join(outDir, file.slice('registry/'.length)));
      expect(published.equals(bytes), file).toBe(true);
    }
  }, 300_000);

  it('writes a new version whose files Git LFS then tracks', async () => {
    const sample = join(clone, 'registry', 'objects', 'oak-chair', 'versions', '1.0.0', 'representations');
    const files = join(work, 'stool');
    await cp(sample, files, { recursive: true });
    const out = await runNewVersion([join(files, 'mesh.glb'), '--id', 'oak-stool', '--version', '1.0.0', '--publisher', 'Ada'], env, clone);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    await git(clone, 'add', '-A');
    await git(clone, 'commit', '-q', '-m', 'oak-stool 1.0.0');
    const tracked = (await git(clone, 'lfs', 'ls-files', '-n')).split('\n');
    expect(tracked).toContain('registry/objects/oak-stool/versions/1.0.0/representations/mesh.glb');
    const stored = await git(clone, 'show', 'HEAD:registry/objects/oak-stool/versions/1.0.0/representations/mesh.glb');
    expect(parseLfsPointer(Buffer.from(stored))).not.toBeNull();
    const check = await runCheck(['--base', 'origin/main'], env, clone);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  }, 120_000);
});

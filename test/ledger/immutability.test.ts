/** `npm run check -- --base <ref>` in real git repositories: every tampering with a published version, the ledger or the retractions is refused by name. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { ledgerFrom, ledgerLine, verifyLedger } from '@aso-registry/core/log/ledger';
import { REGISTRY_URL, sri } from '../registry/fixture.ts';
import { editFile, gitRegistry, publishedRegistry, type GitRegistry } from './git-registry.ts';

const V = 'registry/objects/chair/versions/1.0.0';
const NEVER = 'is published and never changes (publish a new version instead)';
const APPEND_ONLY = 'the file is append-only (add lines at the end; never edit, remove or reorder one)';

let repos: GitRegistry[] = [];
afterEach(async () => {
  await Promise.all(repos.map((r) => r.cleanup()));
  repos = [];
});

async function published(): Promise<GitRegistry> {
  const repo = await publishedRegistry();
  repos.push(repo);
  return repo;
}

const errors = (stderr: string): string[] => stderr.trim().split('\n').filter(Boolean);

describe('a pull request that only adds', () => {
  it('passes: an honest new version appended to the ledger', async () => {
    const repo = await published();
    await repo.publish({ id: 'chair', version: '2.0.0', createdAt: '2025-03-01T00:00:00Z' });
    await repo.commit('publish chair 2.0.0');
    const out = await repo.check('HEAD~1');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const commit = (await repo.git('rev-parse', 'HEAD~1')).trim();
    expect(out.stdout.split('\n')).toEqual([
      expect.stringMatching(/^registry OK: 2 objects, 4 versions, 8 files, [\d,]+ bytes verified$/),
      expect.stringMatching(/^ledger OK: 4 publications, head sha256-[A-Za-z0-9+/]{43}=$/),
      `unchanged since HEAD~1 (${commit.slice(0, 12)}): 3 published versions, 12 files; the ledger keeps its 3 lines`,
      '',
    ]);
  });

  it('passes against a branch name, and with uncommitted honest additions', async () => {
    const repo = await published();
    await repo.git('checkout', '-q', '-b', 'publish-stool');
    await repo.publish({ id: 'stool', version: '0.1.0' });
    expect((await repo.check('main')).code).toBe(0);
    await repo.commit('publish stool');
    expect((await repo.check('main')).code).toBe(0);
  });

  it('passes a retraction appended to retractions.jsonl: the version stays as it was', async () => {
    const repo = await published();
    const out = await repo.ledger('retract', 'chair@1.0.0', '--reason', 'The mesh is upside down.', '--at', '2025-02-02T00:00:00Z');
    expect(out).toEqual({ code: 0, stdout: 'retracted chair@1.0.0 at 2025-02-02T00:00:00Z: The mesh is upside down.\n', stderr: '' });
    await repo.commit('retract chair 1.0.0');
    expect(await repo.check('HEAD~1')).toMatchObject({ code: 0, stderr: '' });
  });

  it('prints the comparison as JSON with --json', async () => {
    const repo = await published();
    const out = await repo.check('HEAD', '--json');
    const doc = JSON.parse(out.stdout);
    expect(doc).toMatchObject({
      ok: true,
      ledger: { size: 3 },
      base: { ref: 'HEAD', commit: (await repo.git('rev-parse', 'HEAD')).trim(), versions: 3, files: 12, ledgerLines: 3 },
      problems: [],
    });
  });
});

describe('a published version', () => {
  it('refuses an edited representation, naming the version and the file', async () => {
    const repo = await published();
    await editFile(repo, 'objects/chair/versions/1.0.0/representations/mesh.glb', (b) => {
      b[b.length - 1] = b[b.length - 1]! ^ 1;
      return b;
    });
    await repo.commit('fix the mesh in place');
    const out = await repo.check('HEAD~1');
    expect(out.code).toBe(1);
    expect(errors(out.stderr)).toContain(`${V}/representations/mesh.glb: file: changed since HEAD~1; chair@1.0.0 ${NEVER}`);
    // The tree check sees it too: the declared hash no longer matches.
    expect(out.stderr).toContain(`${V}/aso.object.json: /representations/0/hash: hash mismatch for representations/mesh.glb`);
  });

  it('refuses a manifest edited together with its publication record, also without --base (the ledger keeps the old hash)', async () => {
    const repo = await published();
    const oldHash = JSON.parse(await repo.read('objects/chair/versions/1.0.0/publication.json')).recordHash as string;
    await editFile(repo, 'objects/chair/versions/1.0.0/aso.object.json', (b) => b.toString('utf8').replace('"Object chair"', '"Renamed chair"'));
    const newHash = sri(await readFile(repo.path('objects/chair/versions/1.0.0/aso.object.json')));
    await editFile(repo, 'objects/chair/versions/1.0.0/publication.json', (b) => b.toString('utf8').replace(oldHash, newHash));
    await repo.commit('rename chair 1.0.0 in place');
    const out = await repo.check('HEAD~1');
    expect(out.code).toBe(1);
    expect(errors(out.stderr)).toEqual([
      `registry/ledger.jsonl: line 1: (chair@1.0.0) recordHash ${oldHash} is not the record hash in ${V}/publication.json (${newHash}): the published manifest was changed`,
      `${V}/aso.object.json: file: changed since HEAD~1; chair@1.0.0 ${NEVER}`,
      `${V}/publication.json: file: changed since HEAD~1; chair@1.0.0 ${NEVER}`,
    ]);
    const plain = await runCheck([], { REGISTRY_URL }, repo.repo);
    expect(plain.code).toBe(1);
    expect(errors(plain.stderr)).toEqual([errors(out.stderr)[0]]);
  });

  it('refuses the same edit with the ledger rewritten to match: only --base (and a remembered checkpoint) can see it', async () => {
    const repo = await published();
    const before = await repo.read('ledger.jsonl');
    const oldHash = JSON.parse(await repo.read('objects/chair/versions/1.0.0/publication.json')).recordHash as string;
    await editFile(repo, 'objects/chair/versions/1.0.0/aso.object.json', (b) => b.toString('utf8').replace('"Object chair"', '"Renamed chair"'));
    const newHash = sri(await readFile(repo.path('objects/chair/versions/1.0.0/aso.object.json')));
    await editFile(repo, 'objects/chair/versions/1.0.0/publication.json', (b) => b.toString('utf8').replace(oldHash, newHash));
    const entries = (await verifyLedger(before)).entries.map(({ seq: _s, prev: _p, ...e }) => (e.recordHash === oldHash ? { ...e, recordHash: newHash } : e));
    await writeFile(repo.path('ledger.jsonl'), await ledgerFrom(entries));
    await repo.commit('rewrite history');
    expect((await runCheck([], { REGISTRY_URL }, repo.repo)).code).toBe(0);
    const out = await repo.check('HEAD~1');
    expect(out.code).toBe(1);
    expect(errors(out.stderr)).toEqual([
      `${V}/aso.object.json: file: changed since HEAD~1; chair@1.0.0 ${NEVER}`,
      `${V}/publication.json: file: changed since HEAD~1; chair@1.0.0 ${NEVER}`,
      `registry/ledger.jsonl: line 1: changed since HEAD~1; ${APPEND_ONLY}`,
    ]);
  });

  it('refuses a deleted version, also without --base (its ledger line has no version)', async () => {
    const repo = await published();
    await rm(repo.path('objects/chair/versions/1.0.0'), { recursive: true });
    await repo.commit('delete chair 1.0.0');
    const out = await repo.check('HEAD~1');
    expect(out.code).toBe(1);
    expect(errors(out.stderr)).toEqual([
      `registry/ledger.jsonl: line 1: (chair@1.0.0) has no version folder (${V} is missing): a published version is never removed; retract it in retractions.jsonl instead`,
      `${V}: file: chair@1.0.0 was removed since HEAD~1; published versions are never removed (retract it in retractions.jsonl instead)`,
    ]);
  });

  it('refuses a deleted version whose ledger line was deleted too', async () => {
    const repo = await published();
    await rm(repo.path('objects/table'), { recursive: true });
    await editFile(repo, 'ledger.jsonl', (b) => `${b.toString('utf8').split('\n').slice(0, 2).join('\n')}\n`);
    await repo.commit('delete table');
    const out = await repo.check('HEAD~1');
    expect(errors(out.stderr)).toEqual([
      'registry/objects/table/versions/1.0.0: file: table@1.0.0 was removed since HEAD~1; published versions are never removed (retract it in retractions.jsonl instead)',
      `registry/ledger.jsonl: line 3: removed since HEAD~1; ${APPEND_ONLY}`,
    ]);
  });

  it('refuses a file added to, or removed from, a published version', async () => {
    const repo = await published();
    await repo.write('objects/chair/versions/1.0.0/representations/extra.png', 'x');
    await rm(repo.path('objects/chair/versions/1.1.0/representations/reference.png'));
    await repo.commit('change files');
    const found = errors((await repo.check('HEAD~1')).stderr);
    expect(found).toContain(`${V}/representations/extra.png: file: added since HEAD~1 to chair@1.0.0, which ${NEVER}`);
    expect(found).toContain(`registry/objects/chair/versions/1.1.0/representations/reference.png: file: removed since HEAD~1; chair@1.1.0 ${NEVER}`);
  });

  it('refuses changes that are not committed yet: the working tree is what is compared', async () => {
    const repo = await published();
    await editFile(repo, 'objects/table/versions/1.0.0/publication.json', (b) => b.toString('utf8').replace('test-publisher', 'someone else'));
    const out = await repo.check('HEAD');
    expect(errors(out.stderr)).toEqual([`registry/objects/table/versions/1.0.0/publication.json: file: changed since HEAD; table@1.0.0 ${NEVER}`]);
  });
});

describe('the ledger', () => {
  it('refuses reordered lines', async () => {
    const repo = await published();
    await editFile(repo, 'ledger.jsonl', (b) => {
      const [a, c, t] = b.toString('utf8').trim().split('\n');
      return `${a}\n${t}\n${c}\n`;
    });
    await repo.commit('reorder');
    const found = errors((await repo.check('HEAD~1')).stderr);
    expect(found).toContain('registry/ledger.jsonl: line 2: (table@1.0.0) seq is 3, expected 2');
    expect(found).toContain(`registry/ledger.jsonl: line 2: moved since HEAD~1 (that line is now line 3); ${APPEND_ONLY}`);
  });

  it('refuses a rewritten line', async () => {
    const repo = await published();
    const text = await repo.read('ledger.jsonl');
    const second = JSON.parse(text.split('\n')[1]!);
    await writeFile(repo.path('ledger.jsonl'), text.replace(ledgerLine(second), ledgerLine({ ...second, publishedAt: '2024-12-31T00:00:00Z' })));
    await repo.commit('backdate');
    const found = errors((await repo.check('HEAD~1')).stderr);
    expect(found).toContain(
      'registry/ledger.jsonl: line 2: (chair@1.1.0) publishedAt 2024-12-31T00:00:00Z is not the one in registry/objects/chair/versions/1.1.0/publication.json (2025-01-02T00:00:00Z)',
    );
    expect(found).toContainEqual(expect.stringMatching(/^registry\/ledger\.jsonl: line 3: \(table@1\.0\.0\) prev is sha256-\S+, expected sha256-\S+ \(the hash of line 2\)/));
    expect(found).toContain(`registry/ledger.jsonl: line 2: changed since HEAD~1; ${APPEND_ONLY}`);
  });

  it('refuses an appended line with a wrong prev, naming the line and the expected hash', async () => {
    const repo = await published();
    await repo.addVersion({ id: 'stool', version: '1.0.0' });
    const pub = JSON.parse(await repo.read('objects/stool/versions/1.0.0/publication.json'));
    const text = await repo.read('ledger.jsonl');
    const { head } = await verifyLedger(text);
    const wrong = ledgerLine({ seq: 4, publicationId: pub.publicationId, id: 'stool', version: '1.0.0', recordHash: pub.recordHash, publishedAt: pub.publishedAt, prev: pub.recordHash });
    await writeFile(repo.path('ledger.jsonl'), `${text}${wrong}\n`);
    await repo.commit('publish stool by hand');
    const out = await repo.check('HEAD~1');
    expect(out.code).toBe(1);
    expect(errors(out.stderr)).toEqual([
      `registry/ledger.jsonl: line 4: (stool@1.0.0) prev is ${pub.recordHash}, expected ${head} (the hash of line 3); lines were changed, removed or reordered`,
    ]);
  });

  it('refuses a new version without a ledger line', async () => {
    const repo = await published();
    await repo.addVersion({ id: 'stool', version: '1.0.0' });
    await repo.commit('publish stool without the ledger');
    expect(errors((await repo.check('HEAD~1')).stderr)).toEqual([
      'registry/ledger.jsonl: file: stool@1.0.0 has no line, but registry/objects/stool/versions/1.0.0/publication.json says it is published; append one with: npx tsx scripts/ledger.ts append stool@1.0.0',
    ]);
  });

  it('refuses a removed ledger (a registry without one passes only until it starts one)', async () => {
    const repo = await published();
    await rm(repo.path('ledger.jsonl'));
    await repo.commit('drop the ledger');
    expect((await runCheck([], { REGISTRY_URL }, repo.repo)).code).toBe(0);
    expect(errors((await repo.check('HEAD~1')).stderr)).toEqual([`registry/ledger.jsonl: file: removed since HEAD~1; ${APPEND_ONLY}`]);
  });
});

describe('retractions', () => {
  it('refuses a rewritten or removed retraction', async () => {
    const repo = await published();
    await repo.ledger('retract', 'chair@1.0.0', '--reason', 'Upside down.', '--at', '2025-02-02T00:00:00Z');
    await repo.commit('retract');
    await editFile(repo, 'retractions.jsonl', (b) => b.toString('utf8').replace('Upside down.', 'Fine after all.'));
    expect(errors((await repo.check('HEAD')).stderr)).toEqual([`registry/retractions.jsonl: line 1: changed since HEAD; ${APPEND_ONLY}`]);
    await rm(repo.path('retractions.jsonl'));
    expect(errors((await repo.check('HEAD')).stderr)).toEqual([`registry/retractions.jsonl: file: removed since HEAD; ${APPEND_ONLY}`]);
  });
});

describe('usage', () => {
  it('exits 2 naming an unknown ref, an empty ref, or a folder outside git', async () => {
    const repo = await published();
    const unknown = await repo.check('origin/nowhere');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'check failed: --base origin/nowhere: "origin/nowhere" is not a commit of this repository (in a shallow or single-branch check-out, fetch it first, e.g. git fetch origin <branch>)\n',
    );
    expect((await repo.check('')).code).toBe(2);
    const bare = await mkdtemp(join(tmpdir(), 'aso-no-git-'));
    try {
      const out = await runCheck(['--base', 'main', '--registry', bare], { REGISTRY_URL, GIT_CEILING_DIRECTORIES: tmpdir() }, bare);
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(/^check failed: --base main: .* is not inside a git repository/);
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });

  it('reports every version as removed when the registry folder is gone', async () => {
    const repo = await published();
    await rm(repo.root, { recursive: true });
    const found = errors((await repo.check('HEAD')).stderr);
    expect(found).toContain('registry: file: the registry folder does not exist');
    expect(found).toContain(
      'registry/objects/table/versions/1.0.0: file: table@1.0.0 was removed since HEAD; published versions are never removed (retract it in retractions.jsonl instead)',
    );
    expect(found).toContain(`registry/ledger.jsonl: file: removed since HEAD; ${APPEND_ONLY}`);
  });

  it('works as a process, as the workflow runs it', async () => {
    const repo = await published();
    await repo.publish({ id: 'stool', version: '1.0.0' });
    await repo.commit('publish stool');
    const tsx = join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'check.ts');
    const { stdout } = await promisify(execFile)(process.execPath, [tsx, script, '--base', 'HEAD~1'], {
      cwd: repo.repo,
      env: { ...process.env, ASO_REGISTRY_DIR: '', REGISTRY_URL },
    });
    expect(stdout).toContain('unchanged since HEAD~1');
  });
});

describe('a registry that starts its ledger', () => {
  it('passes when the first ledger is added to a history that had none', async () => {
    const repo = await gitRegistry();
    repos.push(repo);
    await repo.addVersion({ id: 'chair', version: '1.0.0' });
    await repo.commit('before the ledger');
    expect(await repo.ledger('init')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^wrote 1 line to /) });
    await repo.commit('start the ledger');
    expect(await repo.check('HEAD~1')).toMatchObject({ code: 0, stdout: expect.stringContaining('1 published version, 4 files; the ledger is new\n') });
  });
});

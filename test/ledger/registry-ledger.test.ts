/** The ledger and retraction rules of `npm run check` and the build, the publisher's script, and the append API of the submit script. */
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runLedger } from '../../scripts/ledger.ts';
import { verifyLedger } from '@aso-registry/core/log/ledger';
import { latestNotRetracted } from '@aso-registry/core/format/latest';
import { appendRetraction, parseRetractions, retractionLine, type RetractionEntry } from '@aso-registry/core/log/retractions';
import { appendLedgerEntry } from '../../src/publish/append-ledger.ts';
import { publicationOf } from '../../src/registry/ledger-file.ts';
import { loadRegistry } from '../../src/registry/load-registry.ts';
import { formatProblem } from '../../src/registry/registry-model.ts';
import { retractVersion } from '../../src/publish/retract-version.ts';
import { createFixture, REGISTRY_URL, sri, type Fixture } from '../registry/fixture.ts';

let fixtures: Fixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.cleanup()));
  fixtures = [];
});

/** chair 1.0.0, 1.1.0 and 2.0.0-beta.1, published in that order with a ledger. */
async function registry(): Promise<Fixture> {
  const fx = await createFixture();
  fixtures.push(fx);
  for (const [version, createdAt] of [['1.0.0', '2025-01-01T00:00:00Z'], ['1.1.0', '2025-02-01T00:00:00Z'], ['2.0.0-beta.1', '2025-03-01T00:00:00Z']] as const) {
    await fx.addVersion({ id: 'chair', version, createdAt });
    await appendLedgerEntry(fx.root, await publicationOf(fx.root, 'chair', version));
  }
  return fx;
}

const ledger = (fx: Fixture, ...args: string[]) => runLedger([...args, '--registry', fx.root], { REGISTRY_URL }, fx.repo);
const problems = async (fx: Fixture): Promise<string[]> => (await loadRegistry(fx.root, { registryUrl: REGISTRY_URL })).problems.map(formatProblem);

describe('loadRegistry with a ledger', () => {
  it('returns the checked ledger and no problems', async () => {
    const fx = await registry();
    const loaded = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL });
    expect(loaded.problems).toEqual([]);
    const text = await readFile(fx.path('ledger.jsonl'), 'utf8');
    expect(loaded.ledger).toEqual({ entries: (await verifyLedger(text)).entries, size: 3, head: (await verifyLedger(text)).head });
    expect(loaded.retracted.size).toBe(0);
    expect(loaded.registry.objects[0]!.latest).toBe('1.1.0');
  });

  it('names a ledger line whose publication record says otherwise', async () => {
    const fx = await registry();
    const file = fx.path('objects/chair/versions/1.1.0/publication.json');
    const pub = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...pub, publicationId: '11111111-1111-4111-8111-111111111111', publishedAt: '2025-05-05T00:00:00Z' }));
    expect(await problems(fx)).toEqual([
      `registry/ledger.jsonl: line 2: (chair@1.1.0) publicationId ${pub.publicationId} is not the one in registry/objects/chair/versions/1.1.0/publication.json (11111111-1111-4111-8111-111111111111)`,
      `registry/ledger.jsonl: line 2: (chair@1.1.0) publishedAt ${pub.publishedAt} is not the one in registry/objects/chair/versions/1.1.0/publication.json (2025-05-05T00:00:00Z)`,
    ]);
  });

  it('does not blame the ledger for a version that is broken on its own', async () => {
    const fx = await registry();
    await rm(fx.path('objects/chair/versions/1.1.0/publication.json'));
    expect(await problems(fx)).toEqual(['registry/objects/chair/versions/1.1.0/publication.json: file: is missing']);
  });

  it('refuses a ledger that is a link or a folder', async () => {
    const fx = await registry();
    await rm(fx.path('ledger.jsonl'));
    await mkdir(fx.path('ledger.jsonl'));
    expect(await problems(fx)).toEqual([
      'registry/ledger.jsonl: file: unknown folder in the registry folder; expected only objects/, worlds/, publishers/, ledger.jsonl, retractions.jsonl and log.pub',
    ]);
    await rm(fx.path('ledger.jsonl'), { recursive: true });
    await writeFile(fx.path('elsewhere.jsonl'), '');
    await symlink(fx.path('elsewhere.jsonl'), fx.path('ledger.jsonl'));
    expect(await problems(fx)).toContain('registry/ledger.jsonl: file: is a symbolic link; the registry holds only plain files and folders');
  });
});

describe('retractions', () => {
  it('mark a version, keep it readable, and make latest skip it', async () => {
    const fx = await registry();
    const entry = await retractVersion(fx.root, { id: 'chair', version: '1.1.0', reason: '  Wrong scale.  ', retractedAt: '2025-06-01T00:00:00Z' });
    const hash = sri(await readFile(fx.path('objects/chair/versions/1.1.0/aso.object.json')));
    expect(entry).toEqual({ id: 'chair', version: '1.1.0', recordHash: hash, retractedAt: '2025-06-01T00:00:00Z', reason: 'Wrong scale.' });
    expect(await readFile(fx.path('retractions.jsonl'), 'utf8')).toBe(`${retractionLine(entry)}\n`);
    const loaded = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL });
    expect(loaded.problems).toEqual([]);
    expect(loaded.retracted.get('chair@1.1.0')).toEqual({ reason: 'Wrong scale.', retractedAt: '2025-06-01T00:00:00Z' });
    const chair = loaded.registry.objects[0]!;
    expect(chair.versions.map((v) => v.version)).toEqual(['2.0.0-beta.1', '1.1.0', '1.0.0']);
    expect(chair.latest).toBe('1.0.0');
  });

  it('name a retraction of a missing version, of other bytes, before publication, or twice', async () => {
    const fx = await registry();
    const hash = sri(await readFile(fx.path('objects/chair/versions/1.0.0/aso.object.json')));
    const line = (e: Partial<RetractionEntry>) =>
      retractionLine({ id: 'chair', version: '1.0.0', recordHash: hash, retractedAt: '2025-06-01T00:00:00Z', reason: 'Broken.', ...e });
    await fx.write(
      'retractions.jsonl',
      [
        line({ version: '9.9.9' }),
        line({ version: '1.1.0' }),
        line({ retractedAt: '2024-01-01T00:00:00Z' }),
        line({}),
        line({ reason: 'Again.' }),
        line({ reason: ' ' }),
        '{"id":"chair"}',
      ].join('\n') + '\n',
    );
    const other = sri(await readFile(fx.path('objects/chair/versions/1.1.0/aso.object.json')));
    expect(await problems(fx)).toEqual([
      'registry/retractions.jsonl: line 4: (chair@1.0.0) is already retracted on line 3',
      'registry/retractions.jsonl: line 5: (chair@1.0.0) is already retracted on line 3',
      'registry/retractions.jsonl: line 6: reason must say why the version is retracted',
      'registry/retractions.jsonl: line 7: version must be a string',
      'registry/retractions.jsonl: line 1: (chair@9.9.9) names a version that is not in the registry (registry/objects/chair/versions/9.9.9 is missing)',
      `registry/retractions.jsonl: line 2: (chair@1.1.0) recordHash ${hash} is not the record hash of chair@1.1.0 (${other})`,
      'registry/retractions.jsonl: line 3: (chair@1.0.0) retractedAt 2024-01-01T00:00:00Z is before the version was published (2025-01-02T00:00:00Z)',
    ]);
  });

  it('keep latest on the highest version when every version is retracted', () => {
    expect(latestNotRetracted(['1.0.0', '1.1.0', '2.0.0-beta.1'], () => true)).toBe('1.1.0');
    expect(latestNotRetracted(['1.0.0', '1.1.0', '2.0.0-beta.1'], (v) => v !== '2.0.0-beta.1')).toBe('2.0.0-beta.1');
    expect(latestNotRetracted([], () => false)).toBeUndefined();
  });

  it('are appended in canonical form and refused twice', () => {
    const e: RetractionEntry = { id: 'a-b', version: '1.0.0', recordHash: sri(new Uint8Array([1])), retractedAt: '2025-01-01T00:00:00Z', reason: 'r' };
    const text = appendRetraction('', e);
    expect(text).toBe(`{"id":"a-b","version":"1.0.0","recordHash":"${e.recordHash}","retractedAt":"2025-01-01T00:00:00Z","reason":"r"}\n`);
    expect(parseRetractions(text)).toEqual({ entries: [e], lineOf: [1], problems: [] });
    expect(() => appendRetraction(text, { ...e, reason: 'again' })).toThrow('a-b@1.0.0 is already retracted on line 1');
    expect(() => appendRetraction('', { ...e, retractedAt: 'soon' })).toThrow('cannot retract a-b@1.0.0: retractedAt must be an RFC 3339 date-time');
    expect(parseRetractions(`${JSON.stringify({ ...e, extra: 1 })}\n`).problems).toEqual([{ line: 1, message: 'unknown field "extra"' }]);
  });
});

describe('scripts/ledger.ts', () => {
  it('appends from publication.json, and refuses a version twice or one that is not published', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'stool', version: '1.0.0' });
    expect(await ledger(fx, 'append', 'stool@1.0.0')).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^ledger line 4: stool@1\.0\.0 sha256-[A-Za-z0-9+/]{43}=\n$/),
      stderr: '',
    });
    expect(await problems(fx)).toEqual([]);
    const twice = await ledger(fx, 'append', 'stool@1.0.0');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/ledger\.jsonl: stool@1\.0\.0 \(publication [0-9a-f-]{36}\) is already in the ledger on line 4\n$/);
    const missing = await ledger(fx, 'append', 'stool@2.0.0');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/objects\/stool\/versions\/2\.0\.0\/publication\.json: is missing; stool@2\.0\.0 is not a published version\n$/);
  });

  it('refuses to append a version whose record hash is not its manifest hash', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'stool', version: '1.0.0', editPublication: (p) => void (p.recordHash = sri(new Uint8Array([0]))) });
    const before = await readFile(fx.path('ledger.jsonl'), 'utf8');
    const out = await ledger(fx, 'append', 'stool@1.0.0');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('stool@1.0.0 does not pass npm run check, so no ledger line was appended');
    expect(out.stderr).toMatch(/publication\.json: \/recordHash: /);
    expect(await readFile(fx.path('ledger.jsonl'), 'utf8')).toBe(before);
  });

  it('refuses to append a version that check refuses (a file that is not what its manifest says), appending nothing', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'stool', version: '1.0.0' });
    const before = await readFile(fx.path('ledger.jsonl'), 'utf8');
    const files = await readdir(fx.path('objects/stool/versions/1.0.0/representations'));
    await writeFile(fx.path(`objects/stool/versions/1.0.0/representations/${files[0]}`), 'not the declared bytes');
    const out = await ledger(fx, 'append', 'chair@2.0.0-beta.1', 'stool@1.0.0');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('stool@1.0.0 does not pass npm run check, so no ledger line was appended (a line can never be removed); fix the version first:');
    expect(out.stderr).toMatch(/aso\.object\.json: \/representations\/0\/hash: hash mismatch/);
    expect(await readFile(fx.path('ledger.jsonl'), 'utf8')).toBe(before);
  });

  it('starts a ledger in publishedAt order, once', async () => {
    const fx = await createFixture();
    fixtures.push(fx);
    await fx.addVersion({ id: 'late', version: '1.0.0', editPublication: (p) => void (p.publishedAt = '2025-03-01T00:00:00Z') });
    await fx.addVersion({ id: 'early', version: '1.0.0', editPublication: (p) => void (p.publishedAt = '2025-01-01T00:00:00Z') });
    expect(await ledger(fx, 'init')).toMatchObject({ code: 0 });
    const { entries, problems: found } = await verifyLedger(await readFile(fx.path('ledger.jsonl'), 'utf8'));
    expect(found).toEqual([]);
    expect(entries.map((e) => e.id)).toEqual(['early', 'late']);
    expect(await ledger(fx, 'init')).toMatchObject({ code: 1, stderr: expect.stringContaining('exists already; the ledger is append-only (use append)') });
  });

  it('retracts, and refuses a second retraction or a missing reason', async () => {
    const fx = await registry();
    expect((await ledger(fx, 'retract', 'chair@1.0.0', '--reason', 'Superseded by 1.1.0.')).code).toBe(0);
    expect(await ledger(fx, 'retract', 'chair@1.0.0', '--reason', 'Again.')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('retractions.jsonl: chair@1.0.0 is already retracted on line 1'),
    });
    expect(await ledger(fx, 'retract', 'chair@1.1.0')).toMatchObject({ code: 2, stderr: expect.stringContaining('retract needs --reason') });
    expect(await problems(fx)).toEqual([]);
  });

  it('refuses bad arguments with exit code 2', async () => {
    const fx = await registry();
    expect(await ledger(fx, 'append', 'Chair@1.0.0')).toMatchObject({ code: 2, stderr: expect.stringContaining('"Chair@1.0.0" is not <id>@<version>') });
    expect(await ledger(fx, 'append', 'chair@1.0')).toMatchObject({ code: 2, stderr: expect.stringContaining('"1.0" is not an exact semantic version') });
    expect(await ledger(fx, 'append')).toMatchObject({ code: 2 });
    expect(await ledger(fx, 'publish')).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "publish"') });
    expect(await ledger(fx, 'retract', 'chair@1.0.0', '--reason', 'x', '--at', 'now')).toMatchObject({ code: 2 });
  });
});

describe('appendLedgerEntry (what the submit script calls)', () => {
  it('keeps the chain when several publications are appended at once', async () => {
    const fx = await registry();
    const ids = ['a-1', 'a-2', 'a-3', 'a-4'];
    for (const id of ids) await fx.addVersion({ id, version: '1.0.0' });
    const lines = await Promise.all(ids.map(async (id) => appendLedgerEntry(fx.root, await publicationOf(fx.root, id, '1.0.0'))));
    expect(lines.map((l) => l.seq).sort()).toEqual([4, 5, 6, 7]);
    expect(await problems(fx)).toEqual([]);
  });

  it('starts the ledger of a registry that has none with every version already there', async () => {
    const fx = await createFixture();
    fixtures.push(fx);
    await fx.addVersion({ id: 'older', version: '1.0.0', editPublication: (p) => void (p.publishedAt = '2025-01-01T00:00:00Z') });
    await fx.addVersion({ id: 'newer', version: '1.0.0', editPublication: (p) => void (p.publishedAt = '2025-06-01T00:00:00Z') });
    await fx.addVersion({ id: 'submitted', version: '1.0.0', editPublication: (p) => void (p.publishedAt = '2025-03-01T00:00:00Z') });
    const line = await appendLedgerEntry(fx.root, await publicationOf(fx.root, 'submitted', '1.0.0'));
    expect(line).toMatchObject({ seq: 3, id: 'submitted' });
    const { entries } = await verifyLedger(await readFile(fx.path('ledger.jsonl'), 'utf8'));
    expect(entries.map((e) => e.id)).toEqual(['older', 'newer', 'submitted']);
    expect(await problems(fx)).toEqual([]);
  });

  it('refuses to append to a broken ledger, naming the file and line', async () => {
    const fx = await registry();
    await writeFile(fx.path('ledger.jsonl'), (await readFile(fx.path('ledger.jsonl'), 'utf8')).replace(/\n$/, ''));
    await fx.addVersion({ id: 'stool', version: '1.0.0' });
    await expect(appendLedgerEntry(fx.root, await publicationOf(fx.root, 'stool', '1.0.0'))).rejects.toThrow(
      /ledger\.jsonl: cannot append to a broken ledger: line 3: the file must end with a newline$/,
    );
  });
});

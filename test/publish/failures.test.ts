/** Every bad input ends with one clear PublishError, and `registry/` (and git) exactly as it was. */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishError } from '../../src/publish/publish-error.ts';
import { tinyGlb } from '../registry/fixture.ts';
import { createRepo, fakeApi, flatPng, photoPng, publish, recordIo, snapshot, startService, type TestRepo } from './helpers.ts';

let svc: Awaited<ReturnType<typeof startService>>;
let api: { url: string; key: string };
let repo: TestRepo;
let glb: Uint8Array;

beforeAll(async () => {
  svc = await startService();
  api = { url: svc.service.url, key: svc.key };
  repo = await createRepo();
  glb = await tinyGlb();
  await writeFile(repo.path('photo.png'), await photoPng());
  await writeFile(repo.path('flat.png'), await flatPng());
  await writeFile(repo.path('notes.txt'), 'not an image\n');
  // One published version, committed, with its ledger.
  await publish(repo, api, { image: 'photo.png', model: 'card', object: 'chair' });
  await repo.git('switch', '-q', 'main');
  await repo.git('merge', '-q', '--ff-only', 'publish/chair/1.0.0');
});
afterAll(async () => {
  await svc?.close();
  await repo?.remove();
});

/** Runs a publish that must fail; returns the error after checking that nothing changed. */
async function fails(options: Parameters<typeof publish>[2], target: { url: string; key: string } | null = api): Promise<PublishError> {
  const before = await snapshot(repo);
  let error: unknown;
  try {
    await publish(repo, target, options, recordIo());
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(PublishError);
  expect(await snapshot(repo)).toBe(before);
  return error as PublishError;
}

async function stateFiles(): Promise<string[]> {
  return (await readdir(repo.stateDir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
}

describe('submit refuses bad input and leaves the registry as it was', () => {
  it('a missing image, a file that is not an image, a missing flag', async () => {
    expect((await fails({ image: 'nope.png', model: 'relief', object: 'chair' })).message).toBe('--image nope.png: cannot be read (no such file)');
    expect((await fails({ image: 'notes.txt', model: 'relief', object: 'chair' })).message).toMatch(/^--image notes\.txt: is not a readable image \(.+\); use a PNG, JPEG or WebP file$/);
    const missing = await fails({ image: 'photo.png', object: 'chair' });
    expect(missing.message).toBe('--model is required');
    expect(missing.exitCode).toBe(2);
    expect((await fails({ image: 'photo.png', model: 'relief', object: 'Bad Id' })).message).toContain('--object "Bad Id" must be lowercase letters');
  });

  it('an unknown model, listing the catalog', async () => {
    const error = await fails({ image: 'photo.png', model: 'nerf', object: 'chair' });
    expect(error.message).toMatch(/^unknown model "nerf"; http:\/\/127\.0\.0\.1:\d+ offers: relief \(Relief: mesh, glb\), silhouette/);
    for (const id of ['relief', 'silhouette', 'card', 'lithophane', 'points']) expect(error.message).toContain(`${id} (`);
  }, 30_000);

  it('a bad API key: the 401 explained', async () => {
    const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair' }, { url: api.url, key: 'aso_sk_wrong' });
    expect(error.message).toContain('the job API refused the API key (401: the API key is unknown or has been revoked)');
    expect(error.message).toContain('set ASO_API_KEY');
    const noKey = await fails({ image: 'photo.png', model: 'relief', object: 'chair', api: api.url, env: { REGISTRY_URL: 'https://registry.test' } }, null);
    expect(noKey.message).toMatch(/^ASO_API_KEY is not set; the job API at http:\/\/127\.0\.0\.1:\d+ needs an API key/);
  });

  it('a job that fails: its error shown, no state kept', async () => {
    const error = await fails({ image: 'flat.png', model: 'silhouette', object: 'chair' });
    expect(error.message).toMatch(/^job [0-9a-f-]{36} failed: no foreground was found: .+ \(no_foreground\)$/);
    expect(error.resumeJobId).toBeUndefined();
    expect(await stateFiles()).toEqual([]);
  });

  it('an existing version, before any job is submitted', async () => {
    const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair', version: '1.0.0' });
    expect(error.message).toMatch(/^chair@1\.0\.0 exists already \(.+\); published versions are never changed: choose another --version \(the latest is 1\.0\.0\)$/);
    expect((await fails({ image: 'photo.png', model: 'relief', object: 'chair', version: '1.0' })).message).toContain('--version "1.0" is not a Semantic Versioning 2.0.0 version');
  });

  it('a dirty working tree, and a branch that exists already', async () => {
    await writeFile(repo.path('README.md'), '# changed\n');
    try {
      const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair' });
      expect(error.message).toBe('the working tree has changes (M README.md); commit or stash them first so the publish commit holds only the new version, or pass --no-commit');
    } finally {
      await repo.git('checkout', '--', 'README.md');
    }
    await repo.git('branch', 'publish/chair/1.0.1');
    try {
      expect((await fails({ image: 'photo.png', model: 'relief', object: 'chair' })).message).toBe('the branch publish/chair/1.0.1 exists already; delete it or publish another version');
    } finally {
      await repo.git('branch', '-D', 'publish/chair/1.0.1');
    }
  });

  it('a broken ledger, before any job is submitted', async () => {
    const ledger = repo.path('registry', 'ledger.jsonl');
    const text = await readFile(ledger, 'utf8');
    await writeFile(ledger, `${text}{"seq":9}\n`);
    try {
      const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair', commit: false });
      expect(error.message).toMatch(/ledger\.jsonl: line 2: .+; the ledger must be valid before a version is added to it \(see npm run check\)$/);
    } finally {
      await writeFile(ledger, text);
    }
  });

  it('a server that answers 5xx: retried (honouring Retry-After), then a clear failure', async () => {
    const fake = await fakeApi(glb, { create: (_q, reply) => reply.code(503).header('retry-after', '0').send({ error: { code: 'unavailable', message: 'down for maintenance' } }) });
    try {
      const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair' }, fake);
      expect(error.message).toBe('POST /v1/jobs answered 503 (unavailable: down for maintenance); gave up after 3 attempts');
      expect(fake.hits.create).toBe(3);
    } finally {
      await fake.close();
    }
  });

  it('a server that answers garbage: retried, then a clear failure that keeps the job for --resume', async () => {
    const fake = await fakeApi(glb, { get: (_q, reply) => reply.type('text/html').send('<html>502 Bad Gateway</html>') });
    try {
      const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair' }, fake);
      expect(error.message).toBe(`GET /v1/jobs/${fake.jobId} answered 200 with a body that is not JSON: <html>502 Bad Gateway</html>; gave up after 3 attempts`);
      expect(error.resumeJobId).toBe(fake.jobId);
      expect(await stateFiles()).toEqual([`${fake.jobId}.json`]);
    } finally {
      await fake.close();
    }
    const shape = await fakeApi(glb, { get: () => ({ id: 42, status: 'done' }) });
    try {
      expect((await fails({ image: 'photo.png', model: 'relief', object: 'chair' }, shape)).message).toContain('answered with job');
    } finally {
      await shape.close();
    }
  });

  it('a flaky server: 5xx and 429 are retried and the publish goes through, with one job', async () => {
    const fake = await fakeApi(glb, {
      create: (_q, reply, hit, job) => (hit === 1 ? reply.code(500).send('oops') : reply.code(202).send(job('queued'))),
      get: (_q, reply, hit, job) => (hit === 1 ? reply.code(429).header('retry-after', '0').send({ error: { code: 'rate_limited', message: 'slow down' } }) : job('succeeded')),
    });
    try {
      const result = await publish(repo, fake, { image: 'photo.png', model: 'relief', object: 'flaky', commit: false });
      expect(result).toMatchObject({ id: 'flaky', version: '1.0.0', jobId: fake.jobId });
      const creates = fake.headers.filter((h) => h.route === 'create').map((h) => h['idempotency-key']);
      expect(creates).toHaveLength(2);
      expect(creates[0]).toBe(creates[1]);
    } finally {
      await fake.close();
      await repo.git('checkout', '--', 'registry/ledger.jsonl');
      await import('node:fs/promises').then((fs) => fs.rm(repo.path('registry', 'objects', 'flaky'), { recursive: true }));
    }
  });

  it('an asset that fails validation, or whose hash or length is not the one declared', async () => {
    const junk = new TextEncoder().encode('glTF but not really');
    const invalid = await fakeApi(junk);
    try {
      const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair' }, invalid);
      expect(error.message).toMatch(new RegExp(`^the asset of job ${invalid.jobId} is not a valid GLB asset \\(gltf-validator\\):\\n  `));
      expect(error.resumeJobId).toBeUndefined();
    } finally {
      await invalid.close();
    }
    const wrongHash = await fakeApi(glb, {
      asset: (_q, reply) => reply.header('content-type', 'model/gltf-binary').header('x-content-sha256', '0'.repeat(64)).send(Buffer.from(glb)),
    });
    try {
      const error = await fails({ image: 'photo.png', model: 'relief', object: 'chair' }, wrongHash);
      expect(error.message).toMatch(/^the asset of job .+ does not match its declared SHA-256: expected 0{64}, actual [0-9a-f]{64}$/);
    } finally {
      await wrongHash.close();
    }
    const short = await fakeApi(glb, { asset: (_q, reply) => reply.header('x-content-sha256', 'ab'.repeat(32)).send(Buffer.from(glb.subarray(0, 10))) });
    try {
      expect((await fails({ image: 'photo.png', model: 'relief', object: 'chair' }, short)).message).toMatch(/does not match/);
    } finally {
      await short.close();
    }
  });

  it('corrections: a missing version, a missing reason', async () => {
    expect((await fails({ correct: 'chair@9.9.9', reason: 'x', name: 'Chair' }, null)).message).toMatch(/^--correct chair@9\.9\.9: no such published version/);
    expect((await fails({ correct: 'chair@1.0.0', name: 'Chair' }, null)).message).toBe('--correct needs --reason "<what was wrong>"');
    expect((await fails({ correct: 'chair@1.0.0', reason: 'typo' }, null)).message).toBe('--correct needs the fixed metadata: at least one of --name, --description, --tags, --license');
    expect((await fails({ correct: 'chair', reason: 'typo', name: 'x' }, null)).message).toContain('"chair" is not <id>@<version>');
  });
});

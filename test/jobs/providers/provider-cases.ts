/**
 * The cases every hosted provider must pass against its stand-in, through `submit` into a real git repository: a
 * success that becomes a version on a branch and passes `npm run check`, a failed task, a rate limit waited out, an
 * answer that is not a GLB, and a missing key.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { runCheck } from '../../../scripts/check.ts';
import type { Manifest } from '@aso-registry/core/format/types';
import type { OptionValue, ProviderName } from '../../../src/jobs/providers/provider.ts';
import { PublishError } from '../../../src/publish/publish-error.ts';
import { submit, type SubmitOptions, type SubmitResult } from '../../../src/publish/submit.ts';
import { createRepo, photoPng, recordIo, REGISTRY_URL, snapshot, type TestRepo } from '../../publish/helpers.ts';
import { sampleGlb, type StandIn, type TaskScript } from './stand-in-server.ts';

/** One provider and its stand-in. */
export interface ProviderCase {
  provider: Exclude<ProviderName, 'aso'>;
  keyVariable: string;
  baseVariable: string;
  model: string;
  options: Record<string, OptionValue>;
  start(script: TaskScript): Promise<StandIn>;
  /** What `provenance.generator.version` is, when the provider reports one. */
  version?: string;
}

/** What a test of one provider shares: the repository, the stand-in, and a publish through both. */
export interface ProviderHarness {
  repo: TestRepo;
  stand: StandIn;
  glb: Uint8Array;
  /** Runs a publish against the stand-in (the key and base URL in the environment unless `env` replaces them). */
  publish(more: Partial<SubmitOptions>, io?: ReturnType<typeof recordIo>): Promise<SubmitResult>;
  /** Runs a publish that must fail, checks that the repository is as it was, and returns the error. */
  fails(more: Partial<SubmitOptions>, io?: ReturnType<typeof recordIo>): Promise<PublishError>;
  /** The state files kept for --resume. */
  stateFiles(): Promise<string[]>;
}

/** Sets up the repository and the stand-in for the file's tests (they share them, one at a time). */
export function providerHarness(c: ProviderCase): ProviderHarness {
  const h = { glb: new Uint8Array() } as ProviderHarness;
  beforeAll(async () => {
    h.glb = await sampleGlb();
    h.repo = await createRepo();
    h.stand = await c.start({ asset: h.glb });
    await writeFile(h.repo.path('photo.png'), await photoPng(40, 30));
  });
  // Each test starts from a task that succeeds with the sample GLB.
  beforeEach(() => {
    if (h.stand) h.stand.script = { asset: h.glb };
  });
  afterAll(async () => {
    await h.stand?.close();
    await h.repo?.remove();
  });
  h.publish = (more, io = recordIo()) =>
    submit(
      {
        cwd: h.repo.dir,
        env: { REGISTRY_URL, [c.keyVariable]: h.stand.key, [c.baseVariable]: h.stand.url },
        stateDir: h.repo.stateDir,
        provider: c.provider,
        model: c.model,
        options: c.options,
        retries: 2,
        backoff: { initialMs: 10, maxMs: 40 },
        maxRetryAfterMs: 20,
        timeoutMs: 30_000,
        ...more,
      },
      io,
    );
  h.fails = async (more, io = recordIo()) => {
    const before = await snapshot(h.repo);
    let error: unknown;
    try {
      await h.publish(more, io);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PublishError);
    expect(await snapshot(h.repo)).toBe(before);
    return error as PublishError;
  };
  h.stateFiles = async () => (await readdir(h.repo.stateDir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  return h;
}

/** Every file of a commit, as text, for a search. */
async function committedText(repo: TestRepo, ref: string): Promise<string> {
  const names = (await repo.git('show', '--name-only', '--format=', ref)).trim().split('\n');
  const texts = await Promise.all(names.map((n) => repo.git('show', `${ref}:${n}`)));
  return `${await repo.git('log', '-1', '--format=%B', ref)}\n${texts.join('\n')}`;
}

/** The five cases, as tests of the calling file. */
export function providerCases(c: ProviderCase, h: ProviderHarness): void {
  it('a succeeded task becomes a version on its own branch that passes npm run check; its expiring URLs are published nowhere', async () => {
    const io = recordIo();
    const result = await h.publish({ image: 'photo.png', object: `${c.provider}-chair`, tags: ['chair'], license: 'CC-BY-4.0' }, io);
    const taskId = h.stand.created.at(-1)!;
    expect(result).toMatchObject({ id: `${c.provider}-chair`, version: '1.0.0', jobId: taskId, branch: `publish/${c.provider}-chair/1.0.0` });
    expect(io.lines.some((l) => /^\[\d\/8\] wait for /.test(l))).toBe(true);

    const dir = h.repo.path('registry', 'objects', `${c.provider}-chair`, 'versions', '1.0.0');
    const manifest = JSON.parse(await readFile(join(dir, 'aso.object.json'), 'utf8')) as Manifest;
    expect(manifest.representations[0]).toMatchObject({ id: 'primary', type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary', byteLength: h.glb.length });
    expect(new Uint8Array(await readFile(join(dir, 'representations', 'primary.glb')))).toEqual(h.glb);
    const provenance = manifest.provenance as Record<string, any>;
    expect(provenance.generator).toEqual({ model: c.model, ...(c.version ? { version: c.version } : {}), provider: c.provider, parameters: c.options });
    expect(provenance.pipeline).toMatchObject({ runId: taskId });
    expect(manifest.generator).toBe(`${c.provider}/${c.model}${c.version ? ` ${c.version}` : ''}`);
    expect(provenance.input).toMatchObject({ filename: 'photo.png', format: 'png', width: 40, height: 30 });

    // Nothing the vendor handed out (signed URLs, its host) is in the commit.
    const text = await committedText(h.repo, 'HEAD');
    expect(text).not.toContain(new URL(h.stand.url).host);
    expect(text).not.toMatch(/signature|Expires=/i);
    expect(text).toContain(taskId);
    expect(await h.stateFiles()).toEqual([]);

    const check = await runCheck([], { REGISTRY_URL }, h.repo.dir);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    await h.repo.git('switch', '-q', 'main');
  });

  it("a failed task ends with the vendor's own message, exit 1, and the repository as it was", async () => {
    h.stand.script = { asset: h.glb, fail: 'The image has no recognizable object.' };
    const error = await h.fails({ image: 'photo.png', object: 'failing' });
    expect(error.message).toContain('The image has no recognizable object.');
    expect(error.message).toContain(h.stand.created.at(-1)!);
    expect(error.exitCode).toBe(1);
    expect(error.resumeJobId).toBeUndefined();
    expect(await h.stateFiles()).toEqual([]);
  });

  it('a rate limit (429) is waited out as the vendor asks, and the publish goes through with one task', async () => {
    const before = h.stand.created.length;
    h.stand.script = { asset: h.glb, rateLimit: { times: 1, retryAfter: '7' } };
    const io = recordIo();
    let result: SubmitResult;
    try {
      result = await h.publish({ image: 'photo.png', object: 'limited', commit: false }, io);
    } finally {
      await h.repo.git('clean', '-fdq', '--', 'registry');
    }
    expect(result).toMatchObject({ id: 'limited', version: '1.0.0' });
    expect(h.stand.created.length).toBe(before + 1);
    const line = io.lines.find((l) => l.includes('answered 429'));
    expect(line, io.lines.join('\n')).toContain('(asked to wait 7 s)');
    expect(line).toContain('retry 1 in 20 ms');
  });

  it('an answer that is not a GLB fails clearly, and nothing is kept', async () => {
    h.stand.script = { asset: new TextEncoder().encode('<html><body>Access denied</body></html>') };
    const error = await h.fails({ image: 'photo.png', object: 'not-glb' });
    expect(error.message).toMatch(/^the asset of .+ is not a GLB file: it starts with "<html><body>Access denie\.\.\.", where a GLB starts with "glTF"$/);
    expect(error.exitCode).toBe(1);
    expect(await h.stateFiles()).toEqual([]);
  });

  it('a missing key names its variable, and nothing is sent', async () => {
    const seen = h.stand.requests.length;
    const error = await h.fails({ image: 'photo.png', object: 'no-key', env: { REGISTRY_URL, [c.baseVariable]: h.stand.url } });
    expect(error.message).toMatch(new RegExp(`^${c.keyVariable} is not set; --provider ${c.provider} needs a ${c.provider} API key`));
    expect(error.exitCode).toBe(2);
    expect(h.stand.requests.length).toBe(seen);
  });
}

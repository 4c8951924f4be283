/**
 * `npm run submit` against a job API whose asset never ends (chunked, no Content-Length): the download streams to a
 * temporary file while it is hashed, stops at the limit with a message that names it, and the process's memory stays
 * flat all along. Also: a `file://` download link fails at once, without retries.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_MAX_ASSET_BYTES } from '../../src/jobs/client/job-client.ts';
import { createRepo, fakeApi, GIT_ENV, photoPng, publish, recordIo, REGISTRY_URL, type TestRepo } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'submit.ts');
/** tsx's loader: the submit script runs in one process whose memory is read from /proc. */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
/** What the endless body sends at most, so that the test ends whatever the client does. */
const SEND_CAP = 3 * 1024 * 1024 * 1024;

let repo: TestRepo;
beforeAll(async () => {
  repo = await createRepo();
  await writeFile(repo.path('photo.png'), await photoPng());
});
afterAll(() => repo?.remove());

/** Resident memory of a process in bytes (Linux), or undefined once it is gone. */
async function rss(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status && /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : undefined;
}

it('stops an endless chunked asset at the default limit, names it, and keeps memory flat', async () => {
  let sent = 0;
  const chunk = Buffer.alloc(256 * 1024, 7);
  const api = await fakeApi(new Uint8Array(1), {
    asset: (_request, reply) => {
      const body = new Readable({
        read() {
          if (sent >= SEND_CAP) return void this.push(null);
          sent += chunk.length;
          this.push(chunk);
        },
      });
      return reply.header('content-type', 'model/gltf-binary').send(body);
    },
  });
  try {
    // The script's temporary folder is one of its own, so that downloads of tests running beside it do not show.
    const temp = await mkdtemp(join(tmpdir(), 'aso-download-limit-'));
    const temps = async (): Promise<string[]> => (await readdir(temp)).filter((n) => n.startsWith('aso-asset-'));
    const env = { ...GIT_ENV, REGISTRY_URL, ASO_API_KEY: api.key, ASO_CACHE_DIR: join(repo.stateDir, 'cache'), TMPDIR: temp };
    const child = spawn(process.execPath, ['--import', TSX_LOADER, SCRIPT, '--image', 'photo.png', '--model', 'relief', '--object', 'endless-asset', '--api', api.url, '--no-commit'], {
      cwd: repo.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (stderr += d));
    let peak = 0;
    let peakTemps = 0;
    const sampler = setInterval(() => {
      void rss(child.pid!).then((r) => (peak = Math.max(peak, r ?? 0)));
      void temps().then((t) => (peakTemps = Math.max(peakTemps, t.length)));
    }, 50);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(sampler);
    expect(code, stderr).not.toBe(0);
    expect(stderr).toContain(`passed the limit of ${DEFAULT_MAX_ASSET_BYTES} bytes while downloading and was stopped there (--max-asset-mb raises the limit)`);
    expect(sent).toBeGreaterThanOrEqual(DEFAULT_MAX_ASSET_BYTES);
    expect(sent).toBeLessThan(SEND_CAP);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(300 * 1024 * 1024);
    expect(api.hits.asset).toBe(1);
    // The partial download is gone.
    expect(await temps()).toEqual([]);
    expect(peakTemps).toBe(1);
    await rm(temp, { recursive: true, force: true });
  } finally {
    await api.close();
  }
}, 180_000);

it('takes a lower limit from --max-asset-mb and refuses a Content-Length above it before reading', async () => {
  const asset = new Uint8Array(3 * 1024 * 1024);
  const api = await fakeApi(asset);
  try {
    const io = recordIo();
    const result = await publish(repo, api, { image: 'photo.png', model: 'relief', object: 'big-asset', maxAssetBytes: 1024 * 1024, commit: false }, io).catch((e: Error) => e);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain(`has ${asset.length} bytes (Content-Length), over the limit of ${1024 * 1024} bytes (--max-asset-mb raises the limit)`);
    expect(api.hits.asset).toBe(1);
  } finally {
    await api.close();
  }
});

it('fails at once on a download link that is not http(s), without retrying', async () => {
  const api = await fakeApi(new Uint8Array(1), {
    get: (_request, _reply, _hit, job) => ({ ...job('succeeded'), download_url: 'file:///etc/passwd' }),
  });
  try {
    const result = await publish(repo, api, { image: 'photo.png', model: 'relief', object: 'file-link', commit: false }).catch((e: Error) => e);
    expect((result as Error).message).toContain('download_url "file:///etc/passwd" uses file; an asset is downloaded over http or https only');
    expect((result as Error).message).not.toContain('gave up after');
  } finally {
    await api.close();
  }
});

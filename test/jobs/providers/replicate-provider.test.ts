/** `npm run submit -- --provider replicate` against a stand-in written from Replicate's HTTP API documentation. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createReplicateProvider } from '../../../src/jobs/providers/replicate-provider.ts';
import { recordIo } from '../../publish/helpers.ts';
import { providerCases, providerHarness, type ProviderCase } from './provider-cases.ts';
import { startReplicateStandIn, TRELLIS_VERSION } from './replicate-stand-in.ts';
import { jsonOf } from './stand-in-server.ts';

const replicate: ProviderCase = {
  provider: 'replicate',
  keyVariable: 'REPLICATE_API_TOKEN',
  baseVariable: 'REPLICATE_BASE_URL',
  model: 'firtoz/trellis',
  options: { images: ['@image'], texture_size: 1024, mesh_simplify: 0.95, generate_model: true },
  start: startReplicateStandIn,
  version: TRELLIS_VERSION,
};
const h = providerHarness(replicate);

describe('--provider replicate', () => {
  providerCases(replicate, h);

  it("creates the prediction on the model's URL, with the image where the option placed it, and shows the logs' progress", async () => {
    const created = h.stand.requests.find((r) => r.method === 'POST' && r.path === '/v1/models/firtoz/trellis/predictions')!;
    expect(created.headers.authorization).toBe(`Bearer ${h.stand.key}`);
    const { input } = jsonOf(created) as { input: Record<string, unknown> };
    expect(input).toMatchObject({ texture_size: 1024, mesh_simplify: 0.95, generate_model: true });
    const images = input.images as string[];
    expect(images).toHaveLength(1);
    expect(Buffer.from(images[0]!.split(',')[1]!, 'base64').equals(await readFile(h.repo.path('photo.png')))).toBe(true);
    expect(h.stand.requests.filter((r) => r.path.endsWith('.glb')).every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it('a pinned version goes to /v1/predictions with its version id', async () => {
    const io = recordIo();
    const result = await h.publish({ image: 'photo.png', object: 'pinned', model: `firtoz/trellis:${TRELLIS_VERSION}` }, io);
    await h.repo.git('switch', '-q', 'main');
    const create = h.stand.requests.filter((r) => r.method === 'POST' && r.path === '/v1/predictions').at(-1)!;
    expect(jsonOf(create)).toMatchObject({ version: TRELLIS_VERSION });
    expect(result.jobId).toBe(h.stand.created.at(-1));
    expect(io.lines.some((l) => /running 40%$/.test(l))).toBe(true);
  });

  it('an image of 1 MB or more goes through the Files API, and the prediction names its URL', async () => {
    const provider = createReplicateProvider({ baseUrl: h.stand.url, key: h.stand.key, retries: 0 }, 64);
    const bytes = new Uint8Array(await readFile(h.repo.path('photo.png')));
    const model = await provider.model('firtoz/trellis', { images: ['@image'] });
    const task = await provider.create({ model, image: { bytes, filename: 'photo.png', format: 'png' }, options: { images: ['@image'] }, idempotencyKey: 'k' });
    const stand = h.stand as Awaited<ReturnType<typeof startReplicateStandIn>>;
    const [fileId, stored] = [...stand.files.entries()].at(-1)!;
    expect(stored).toEqual(bytes);
    const { input } = jsonOf(h.stand.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions')).at(-1)!) as { input: { images: string[] } };
    expect(input.images).toEqual([`${h.stand.url}/v1/files/${fileId}`]);
    expect(task.status).toBe('queued');
  });

  it('Ctrl-C cancels the prediction with Replicate and forgets it', async () => {
    h.stand.script = { asset: h.glb, hang: true };
    const controller = new AbortController();
    const io = recordIo((line) => {
      if (line.includes('wait for replicate prediction')) controller.abort(new Error('SIGINT received'));
    });
    const error = await h.fails({ image: 'photo.png', object: 'canceled', signal: controller.signal }, io);
    const id = h.stand.created.at(-1)!;
    expect(error.exitCode).toBe(130);
    expect(error.message).toBe(`interrupted while waiting for replicate prediction ${id}; replicate prediction ${id} was canceled`);
    expect(h.stand.canceled).toEqual([id]);
    expect(await h.stateFiles()).toEqual([]);
  });

  it('an output without a GLB is refused, naming what it has, and nothing is kept', async () => {
    const error = await h.fails({ image: 'photo.png', object: 'no-glb', options: { images: ['@image'], generate_model: false } });
    expect(error.message).toBe(`the output of replicate prediction ${h.stand.created.at(-1)} names no GLB file (it has color.mp4); choose a model or options that output GLB`);
    expect(error.exitCode).toBe(1);
    expect(await h.stateFiles()).toEqual([]);
  });
});

/** `npm run submit -- --provider fal` against a stand-in written from fal's queue documentation. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { recordIo } from '../../publish/helpers.ts';
import { startFalStandIn } from './fal-stand-in.ts';
import { providerCases, providerHarness, type ProviderCase } from './provider-cases.ts';
import { jsonOf } from './stand-in-server.ts';

const fal: ProviderCase = {
  provider: 'fal',
  keyVariable: 'FAL_KEY',
  baseVariable: 'FAL_BASE_URL',
  model: 'fal-ai/hunyuan3d/v2',
  options: { num_inference_steps: 30, octree_resolution: 256, textured_mesh: false },
  start: startFalStandIn,
};
const h = providerHarness(fal);

describe('--provider fal', () => {
  providerCases(fal, h);

  it('submits to the full endpoint id with the image as a data URI, and follows the request on the owner/app URLs', async () => {
    const submitted = h.stand.requests.find((r) => r.method === 'POST')!;
    expect(submitted.path).toBe('/fal-ai/hunyuan3d/v2');
    expect(submitted.headers.authorization).toBe(`Key ${h.stand.key}`);
    const input = jsonOf(submitted) as Record<string, unknown>;
    expect(input).toMatchObject({ num_inference_steps: 30, octree_resolution: 256, textured_mesh: false });
    expect(Buffer.from(String(input.input_image_url).split(',')[1]!, 'base64').equals(await readFile(h.repo.path('photo.png')))).toBe(true);
    const id = h.stand.created[0]!;
    expect(h.stand.requests.some((r) => r.path === `/fal-ai/hunyuan3d/requests/${id}/status`)).toBe(true);
    expect(h.stand.requests.filter((r) => r.path.endsWith('.glb')).every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("an input the model refuses fails with fal's validation message, pointing at the field", async () => {
    const error = await h.fails({ image: 'photo.png', object: 'refused', options: { octree_resolution: 5000 } });
    expect(error.message).toBe(`fal request ${h.stand.created.at(-1)} failed: ensure this value is less than or equal to 1024 (body.octree_resolution)`);
    expect(error.exitCode).toBe(1);
  });

  it('an option can place the image under the field a model names (@image); --model must be an endpoint id', async () => {
    const error = await h.fails({ image: 'photo.png', object: 'placed', options: { image_url: '@image' } });
    // The stand-in's endpoint reads input_image_url, so an image placed elsewhere is missing there.
    expect(error.message).toBe('fal: POST /fal-ai/hunyuan3d/v2 answered 422 (field required (body.input_image_url))');
    const placed = jsonOf(h.stand.requests.filter((r) => r.method === 'POST').at(-1)!) as Record<string, unknown>;
    expect(String(placed.image_url)).toMatch(/^data:image\/png;base64,/);
    expect(placed.input_image_url).toBeUndefined();
    const model = await h.fails({ image: 'photo.png', object: 'bad-model', model: 'hunyuan3d' });
    expect(model.message).toBe('--model "hunyuan3d" is not a fal endpoint id (owner/app[/path], such as fal-ai/hunyuan3d/v2)');
    expect(model.exitCode).toBe(2);
  });

  it('Ctrl-C cancels the request with fal and forgets it', async () => {
    h.stand.script = { asset: h.glb, hang: true };
    const controller = new AbortController();
    const io = recordIo((line) => {
      if (line.includes('wait for fal request')) controller.abort(new Error('SIGINT received'));
    });
    const error = await h.fails({ image: 'photo.png', object: 'canceled', signal: controller.signal }, io);
    const id = h.stand.created.at(-1)!;
    expect(error.exitCode).toBe(130);
    expect(error.message).toBe(`interrupted while waiting for fal request ${id}; fal request ${id} was canceled`);
    expect(error.resumeJobId).toBeUndefined();
    expect(h.stand.canceled).toEqual([id]);
    expect(await h.stateFiles()).toEqual([]);
  });
});

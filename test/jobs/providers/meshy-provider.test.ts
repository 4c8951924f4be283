/** `npm run submit -- --provider meshy` against a stand-in written from Meshy's documentation. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PublishError } from '../../../src/publish/publish-error.ts';
import { recordIo } from '../../publish/helpers.ts';
import { startMeshyStandIn } from './meshy-stand-in.ts';
import { providerCases, providerHarness, type ProviderCase } from './provider-cases.ts';
import { jsonOf } from './stand-in-server.ts';

const meshy: ProviderCase = {
  provider: 'meshy',
  keyVariable: 'MESHY_API_KEY',
  baseVariable: 'MESHY_BASE_URL',
  model: 'meshy-6',
  options: { topology: 'triangle', target_polycount: 30000, should_texture: true },
  start: startMeshyStandIn,
};
const h = providerHarness(meshy);

describe('--provider meshy', () => {
  providerCases(meshy, h);

  it('sends the image as a data URI with the model and the options, and the key only to the API', async () => {
    const create = h.stand.requests.find((r) => r.method === 'POST')!;
    const body = jsonOf(create) as Record<string, unknown>;
    expect(body).toMatchObject({ ai_model: 'meshy-6', topology: 'triangle', target_polycount: 30000, should_texture: true });
    expect(String(body.image_url)).toMatch(/^data:image\/png;base64,/);
    const sent = Buffer.from(String(body.image_url).split(',')[1]!, 'base64');
    expect(sent.equals(await readFile(h.repo.path('photo.png')))).toBe(true);
    const downloads = h.stand.requests.filter((r) => r.path.endsWith('/model.glb'));
    expect(downloads.length).toBeGreaterThan(0);
    expect(downloads.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("a vendor's 400 is shown in its own words; an option the adapter sets itself is refused before anything is sent", async () => {
    const bad = await h.fails({ image: 'photo.png', object: 'bad-option', options: { target_polycount: 5 } });
    expect(bad.message).toBe('meshy: POST /openapi/v1/image-to-3d answered 400 (target_polycount must be an integer from 100 to 300,000.)');
    const seen = h.stand.requests.length;
    const reserved = await h.fails({ image: 'photo.png', object: 'reserved', options: { ai_model: 'meshy-5' } });
    expect(reserved.message).toBe('--option ai_model: meshy gets "ai_model" from --model; leave the option out');
    expect(reserved.exitCode).toBe(2);
    expect(h.stand.requests.length).toBe(seen);
  });

  it('Ctrl-C keeps the task (Meshy has no cancel); --resume with --provider meshy finishes it without a new task', async () => {
    h.stand.script = { asset: h.glb, hang: true };
    const controller = new AbortController();
    const io = recordIo((line) => {
      if (line.includes('wait for meshy task')) controller.abort(new Error('SIGINT received'));
    });
    const error = await h.fails({ image: 'photo.png', object: 'resumed', signal: controller.signal }, io);
    expect(error.exitCode).toBe(130);
    const taskId = h.stand.created.at(-1)!;
    expect(error.resumeJobId).toBe(taskId);
    expect(h.stand.canceled).toEqual([]);
    expect(io.lines.some((l) => l.includes(`continue with: npm run submit -- --provider meshy --resume ${taskId}`))).toBe(true);
    const state = JSON.parse(await readFile(join(h.repo.stateDir, `${taskId}.json`), 'utf8'));
    expect(state).toMatchObject({ jobId: taskId, provider: { name: 'meshy', options: meshy.options }, api: { url: h.stand.url } });
    expect(JSON.stringify(state)).not.toContain(h.stand.key);

    const wrong = await h.fails({ resume: taskId, provider: 'tripo', model: undefined, options: undefined });
    expect(wrong.message).toBe(`--resume ${taskId}: it was submitted with --provider meshy, not --provider tripo`);

    h.stand.script = { asset: h.glb };
    const creates = h.stand.created.length;
    const result = await h.publish({ resume: taskId, model: undefined, options: undefined });
    expect(result).toMatchObject({ id: 'resumed', jobId: taskId, branch: 'publish/resumed/1.0.0' });
    expect(h.stand.created.length).toBe(creates);
    await h.repo.git('switch', '-q', 'main');
    await expect(h.publish({ resume: taskId, model: undefined, options: undefined })).rejects.toThrow(PublishError);
  });
});

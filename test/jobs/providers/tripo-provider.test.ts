/** `npm run submit -- --provider tripo` against a stand-in written from Tripo's documentation. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { providerCases, providerHarness, type ProviderCase } from './provider-cases.ts';
import { formOf, jsonOf } from './stand-in-server.ts';
import { startTripoStandIn } from './tripo-stand-in.ts';

const tripo: ProviderCase = {
  provider: 'tripo',
  keyVariable: 'TRIPO_API_KEY',
  baseVariable: 'TRIPO_BASE_URL',
  model: 'v2.5-20250123',
  options: { texture: true, pbr: true, face_limit: 20000 },
  start: startTripoStandIn,
  version: 'v2.5-20250123',
};
const h = providerHarness(tripo);

describe('--provider tripo', () => {
  providerCases(tripo, h);

  it('uploads the image, then creates an image_to_model task naming the upload, the model version and the options', async () => {
    const upload = h.stand.requests.find((r) => r.path === '/v2/openapi/upload')!;
    const file = (await formOf(upload)).get('file') as File;
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(await readFile(h.repo.path('photo.png')))).toBe(true);
    const task = jsonOf(h.stand.requests.find((r) => r.path === '/v2/openapi/task' && r.method === 'POST')!) as Record<string, any>;
    expect(task).toMatchObject({ type: 'image_to_model', model_version: 'v2.5-20250123', texture: true, pbr: true, face_limit: 20000, file: { type: 'png' } });
    expect(typeof task.file.file_token).toBe('string');
    expect(h.stand.requests.filter((r) => r.path.endsWith('.glb')).every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("a 400 comes back in Tripo's words; flags of another provider are refused before anything is sent", async () => {
    const bad = await h.fails({ image: 'photo.png', object: 'bad-option', options: { face_limit: -3 } });
    expect(bad.message).toBe('tripo: POST /v2/openapi/task answered 400 (One or more of your parameter is invalid (code 1004); face_limit must be a positive integer)');
    const seen = h.stand.requests.length;
    expect((await h.fails({ image: 'photo.png', object: 'reserved', options: { model_version: 'v3.0-20250812' } })).message).toBe(
      '--option model_version: tripo gets "model_version" from --model; leave the option out',
    );
    const api = await h.fails({ image: 'photo.png', object: 'api', api: 'http://127.0.0.1:9' });
    expect(api.message).toMatch(/^--api names the job API of --provider aso; --provider tripo talks to/);
    expect(api.exitCode).toBe(2);
    const aso = await h.fails({ image: 'photo.png', object: 'aso', provider: 'aso', model: 'relief' });
    expect(aso.message).toMatch(/^--option is for a hosted provider/);
    expect(h.stand.requests.length).toBe(seen);
  });

  it('a key Tripo refuses is explained with its variable', async () => {
    const error = await h.fails({ image: 'photo.png', object: 'wrong-key', env: { REGISTRY_URL: 'https://registry.test', TRIPO_API_KEY: 'tsk_wrong', TRIPO_BASE_URL: h.stand.url } });
    expect(error.message).toBe('tripo refused the key in TRIPO_API_KEY (401: Authentication failed (code 1002); Check if your credentials is valid, and ensure you set it correctly); check that TRIPO_API_KEY holds a valid tripo API key');
  });
});

import { createHash } from 'node:crypto';
import { Document, WebIO } from '@gltf-transform/core';
import { validateBytes } from 'gltf-validator';
import { describe, expect, it } from 'vitest';
import { MODEL_CATALOG } from '../../src/jobs/models/catalog.ts';
import { runModel } from '../../src/jobs/models/run-model.ts';
import { cutoutPng, discPng, gradientJpeg, parsePly } from './helpers.ts';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

async function expectValidGlb(bytes: Uint8Array): Promise<Document> {
  const report = await validateBytes(bytes, { maxIssues: 20 });
  expect(report.issues.messages.filter((m: { severity: number }) => m.severity === 0)).toEqual([]);
  expect(report.issues.numErrors).toBe(0);
  return new WebIO().readBinary(bytes);
}

function bounds(doc: Document): { min: number[]; max: number[] } {
  const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
  const pos = prim.getAttribute('POSITION')!;
  return { min: pos.getMin([]), max: pos.getMax([]) };
}

/** Counts the edges of a mesh (vertices welded by position) that are not shared by exactly two triangles in opposite directions. */
function openEdges(doc: Document): number {
  const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
  const pos = prim.getAttribute('POSITION')!;
  const idx = prim.getIndices()!.getArray()!;
  const weld = new Map<string, number>();
  const id = (i: number): number => {
    const k = pos.getElement(i, [0, 0, 0]).join(',');
    if (!weld.has(k)) weld.set(k, weld.size);
    return weld.get(k)!;
  };
  const directed = new Map<string, number>();
  for (let t = 0; t < idx.length; t += 3) {
    const v = [id(idx[t]!), id(idx[t + 1]!), id(idx[t + 2]!)];
    for (let e = 0; e < 3; e++) {
      const key = `${v[e]}>${v[(e + 1) % 3]}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  let open = 0;
  for (const [key, n] of directed) {
    const [a, b] = key.split('>');
    if (n !== 1 || directed.get(`${b}>${a}`) !== 1) open++;
  }
  return open;
}

describe('the built-in models', () => {
  it('makes, for every catalog entry, the format and media type the entry declares', async () => {
    const image = await discPng();
    const magic: Record<string, string> = { glb: 'glTF', ply: 'ply\n' };
    const mediaType: Record<string, string> = { glb: 'model/gltf-binary', ply: 'application/octet-stream' };
    for (const m of MODEL_CATALOG) {
      const bytes = await runModel(m.id, image);
      expect(new TextDecoder('latin1').decode(bytes.subarray(0, 4)), m.id).toBe(magic[m.format]);
      expect(m.mediaType, m.id).toBe(mediaType[m.format]);
      expect(m.type, m.id).toBe(m.format === 'ply' ? 'point-cloud' : 'mesh');
    }
  });

  for (const model of ['relief', 'silhouette', 'card', 'lithophane'] as const) {
    it(`${model}: a valid GLB, the same bytes for the same image`, async () => {
      const image = await discPng();
      const progress: number[] = [];
      const first = await runModel(model, image, (f) => progress.push(f));
      const second = await runModel(model, image);
      expect(sha(second)).toBe(sha(first));
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((f) => f >= 0 && f <= 1)).toBe(true);
      const doc = await expectValidGlb(first);
      const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
      expect(prim.getAttribute('NORMAL')).not.toBeNull();
      const textured = model !== 'lithophane';
      expect(prim.getMaterial()!.getBaseColorTexture() !== null).toBe(textured);
      const other = await runModel(model, await gradientJpeg());
      expect(sha(other)).not.toBe(sha(first));
      await expectValidGlb(other);
    });
  }

  it('relief, lithophane, card and silhouette are closed solids with consistent winding', async () => {
    for (const [model, image] of [['lithophane', await gradientJpeg(40, 30)], ['relief', await discPng(40, 30)], ['card', await discPng()], ['silhouette', await cutoutPng()], ['silhouette', await discPng(96, 96)]] as const) {
      expect(`${model}: ${openEdges(await new WebIO().readBinary(await runModel(model, image)))} open edges`).toBe(`${model}: 0 open edges`);
    }
  });

  it('relief and card keep the aspect ratio of the image (64 x 48)', async () => {
    for (const model of ['relief', 'card']) {
      const { min, max } = bounds(await new WebIO().readBinary(await runModel(model, await discPng(64, 48))));
      expect((max[0]! - min[0]!) / (max[1]! - min[1]!)).toBeCloseTo(64 / 48, 2);
      expect(max[0]! - min[0]!).toBeCloseTo(1, 5);
    }
  });

  it('lithophane is 100 mm wide and 0.8 to 3 mm thick, thick where dark', async () => {
    const doc = await new WebIO().readBinary(await runModel('lithophane', await gradientJpeg(64, 48)));
    const { min, max } = bounds(doc);
    expect(max[0]! - min[0]!).toBeCloseTo(0.1, 5);
    expect(min[2]).toBe(0);
    expect(max[2]!).toBeLessThanOrEqual(0.003 + 1e-6);
    expect(max[2]!).toBeGreaterThan(0.0029);
    const pos = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!;
    // The first top vertex is the top-left sample (black: thickest), the 64th the top-right one (white: thinnest).
    expect(pos.getElement(0, [0, 0, 0])[2]).toBeGreaterThan(pos.getElement(63, [0, 0, 0])[2]!);
  });

  it('silhouette follows the alpha cut-out', async () => {
    const { min, max } = bounds(await new WebIO().readBinary(await runModel('silhouette', await cutoutPng(60, 60))));
    // The square covers the middle third: about a third of the unit width, centred.
    expect(max[0]! - min[0]!).toBeGreaterThan(0.3);
    expect(max[0]! - min[0]!).toBeLessThan(0.4);
    expect(min[0]! + max[0]!).toBeCloseTo(0, 2);
    expect(max[2]! - min[2]!).toBeCloseTo(0.08, 5);
  });

  it('silhouette traces the hole in the disc against the border colour', async () => {
    const doc = await new WebIO().readBinary(await runModel('silhouette', await discPng(96, 96)));
    const pos = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!;
    // No vertex of the front cap lies at the centre of the hole.
    let nearest = Infinity;
    for (let i = 0; i < pos.getCount(); i++) {
      const [x, y] = pos.getElement(i, [0, 0, 0]);
      nearest = Math.min(nearest, Math.hypot(x!, y!));
    }
    expect(nearest).toBeGreaterThan(0.08);
    const { max, min } = bounds(doc);
    expect(max[0]! - min[0]!).toBeCloseTo(2 / 3, 1);
  });

  it('points: a binary PLY with one coloured point per opaque sample, deterministic', async () => {
    const image = await discPng(64, 48);
    const bytes = await runModel('points', image);
    expect(sha(await runModel('points', image))).toBe(sha(bytes));
    const { count, points } = parsePly(bytes);
    expect(count).toBe(64 * 48);
    expect(points.some((p) => p.r > 180 && p.g < 90 && p.b < 90)).toBe(true);
    expect(points.every((p) => Number.isFinite(p.x + p.y + p.z) && p.z >= 0 && p.z <= 0.1 + 1e-6)).toBe(true);
    const cut = parsePly(await runModel('points', await cutoutPng(60, 60)));
    expect(cut.count).toBe(20 * 20);
  });

  it('bounds the work on a 4,000 x 3,000 image', async () => {
    const big = await gradientJpeg(4000, 3000);
    const glb = await runModel('relief', big);
    const doc = await expectValidGlb(glb);
    const pos = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!;
    expect(pos.getCount()).toBeLessThan(256 * 192 * 1.25);
    expect(parsePly(await runModel('points', big)).count).toBe(256 * 192);
  });

  it('refuses what is not an image, and images with nothing to trace', async () => {
    await expect(runModel('card', new TextEncoder().encode('not an image'))).rejects.toMatchObject({ code: 'invalid_image' });
    const blank = await gradientJpeg(8, 8).then(async () => new Uint8Array(await (await import('sharp')).default({ create: { width: 16, height: 16, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()));
    await expect(runModel('points', blank)).rejects.toMatchObject({ code: 'no_foreground' });
    await expect(runModel('silhouette', blank)).rejects.toMatchObject({ code: 'no_foreground' });
    await expect(runModel('nope', blank)).rejects.toThrow(/unknown model "nope"/);
  });
});

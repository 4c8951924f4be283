/** The sample objects as models: an oak chair in three designs, a brass lantern and a glazed vase. */
import { addBox, addLathe, addTorus, createModel, type Material, type Model, type Vec3 } from './geometry.ts';
import { brassTexture, fabricTexture, glazeTexture, oakTexture } from './textures.ts';

/** The designs of the oak chair, one per published version. */
export type ChairDesign = 'ladder-back' | 'slat-back' | 'armchair';

const white: [number, number, number, number] = [1, 1, 1, 1];

/** A dining chair built from oak boards; later designs add slats, stretchers, arms and a cushion. */
export function oakChair(design: ChairDesign): Model {
  const model = createModel('oak-chair');
  const oak: Material = {
    name: 'oak',
    baseColor: white,
    texture: oakTexture(design === 'armchair' ? 41 : 17, 256, design === 'ladder-back' ? 0 : 0.6),
    metallic: 0,
    roughness: 0.72,
  };
  const board = (min: Vec3, max: Vec3): void => addBox(model, oak, min, max, 2);
  const w = design === 'armchair' ? 0.25 : 0.23;
  const d = 0.21;
  // Seat, legs and the apron under the seat.
  board([-w, 0.43, -d], [w, 0.47, d]);
  for (const x of [-w, w - 0.04]) {
    board([x, 0, d - 0.04], [x + 0.04, 0.43, d]);
    board([x, 0, -d], [x + 0.04, 0.95, -d + 0.04]);
  }
  board([-w + 0.04, 0.37, d - 0.035], [w - 0.04, 0.43, d - 0.015]);
  board([-w + 0.04, 0.37, -d + 0.015], [w - 0.04, 0.43, -d + 0.035]);
  for (const x of [-w + 0.015, w - 0.035]) board([x, 0.37, -d + 0.04], [x + 0.02, 0.43, d - 0.04]);
  // The back.
  board([-w + 0.04, 0.86, -d + 0.005], [w - 0.04, 0.93, -d + 0.035]);
  if (design === 'ladder-back') {
    board([-w + 0.04, 0.62, -d + 0.01], [w - 0.04, 0.67, -d + 0.03]);
  } else {
    for (const x of [-0.1, 0, 0.1]) board([x - 0.02, 0.47, -d + 0.012], [x + 0.02, 0.86, -d + 0.028]);
    for (const x of [-w + 0.01, w - 0.03]) board([x, 0.12, -d + 0.04], [x + 0.02, 0.15, d - 0.04]);
    board([-w + 0.04, 0.16, d - 0.03], [w - 0.04, 0.19, d - 0.01]);
  }
  if (design === 'armchair') {
    for (const x of [-w - 0.03, w - 0.02]) {
      board([x, 0.66, -d + 0.03], [x + 0.05, 0.69, d + 0.02]);
      board([x + 0.01, 0.47, d - 0.035], [x + 0.04, 0.66, d - 0.005]);
    }
    const fabric: Material = { name: 'upholstery', baseColor: white, texture: fabricTexture(5), metallic: 0, roughness: 0.95 };
    addBox(model, fabric, [-w + 0.045, 0.47, -d + 0.04], [w - 0.045, 0.52, d - 0.005], 4);
  }
  return model;
}

/** A candle lantern: brass base, cap and handle, glass chimney, a wax candle and its flame. */
export function brassLantern(): Model {
  const model = createModel('brass-lantern');
  const brass: Material = { name: 'brass', baseColor: white, texture: brassTexture(23), metallic: 0.85, roughness: 0.38 };
  const glass: Material = {
    name: 'glass',
    baseColor: [0.82, 0.9, 0.93, 0.22],
    metallic: 0,
    roughness: 0.08,
    blend: true,
    doubleSided: true,
  };
  const wax: Material = { name: 'wax', baseColor: [0.86, 0.78, 0.6, 1], metallic: 0, roughness: 0.6 };
  const flame: Material = { name: 'flame', baseColor: [1, 0.7, 0.25, 1], metallic: 0, roughness: 1, emissive: [1, 0.55, 0.12] };
  const segments = 24;
  addLathe(model, brass, [[0, 0], [0.085, 0], [0.09, 0.006], [0.09, 0.018], [0.078, 0.026], [0.07, 0.03], [0.07, 0.038], [0, 0.038]], { segments });
  addLathe(model, glass, [[0.058, 0.038], [0.066, 0.08], [0.068, 0.12], [0.064, 0.16], [0.056, 0.2]], { segments });
  addLathe(model, wax, [[0.018, 0.038], [0.018, 0.095], [0.015, 0.1], [0, 0.1]], { segments: 16 });
  addLathe(model, flame, [[0, 0.104], [0.006, 0.109], [0.007, 0.115], [0.004, 0.123], [0, 0.132]], { segments: 12, creaseDegrees: 60 });
  for (const [x, z] of [[1, 1], [1, -1], [-1, 1], [-1, -1]] as const) {
    const cx = x * 0.053;
    const cz = z * 0.053;
    addBox(model, brass, [cx - 0.004, 0.034, cz - 0.004], [cx + 0.004, 0.204, cz + 0.004], 3);
  }
  addLathe(model, brass, [[0.056, 0.2], [0.09, 0.2], [0.09, 0.206], [0.06, 0.235], [0.03, 0.255], [0.022, 0.262], [0.022, 0.272], [0, 0.272]], { segments });
  addTorus(model, brass, [0, 0.3, 0], 0.032, 0.0045, 24, 8);
  return model;
}

/** The lathe profile of the vase: out along the foot, up the belly and neck, over the lip and down inside. */
export const VASE_PROFILE: Array<[number, number]> = [
  [0, 0], [0.045, 0], [0.05, 0.004], [0.052, 0.01], [0.064, 0.035], [0.076, 0.065], [0.085, 0.1], [0.088, 0.13],
  [0.084, 0.16], [0.072, 0.19], [0.057, 0.215], [0.044, 0.24], [0.038, 0.262], [0.039, 0.28], [0.045, 0.295],
  [0.052, 0.302], [0.05, 0.307], [0.044, 0.305], [0.036, 0.294], [0.032, 0.278], [0.033, 0.262], [0.038, 0.24], [0, 0.228],
];

/** A glazed stoneware vase turned on a lathe. */
export function ceramicVase(): Model {
  const model = createModel('ceramic-vase');
  const glaze: Material = { name: 'glaze', baseColor: white, texture: glazeTexture(31), metallic: 0, roughness: 0.28 };
  addLathe(model, glaze, VASE_PROFILE, { segments: 40, creaseDegrees: 35 });
  return model;
}

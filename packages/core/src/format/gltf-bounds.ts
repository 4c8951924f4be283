/**
 * The size of a glTF asset in metres (glTF's unit): the axis-aligned box around the POSITION bounds (accessor `min` and
 * `max`, which the glTF specification requires) of every mesh of the default scene, under each node's transform. Read
 * from the JSON alone, so it costs nothing beside the validator. Skins, morph targets and GPU instancing are left out:
 * the size is that of the model at rest. Pure.
 */

/** Width, height and depth (x, y, z) in metres. */
export type GltfDimensions = [number, number, number];

/** A column-major 4x4 matrix, as glTF writes `node.matrix`. */
type Mat4 = ArrayLike<number>;

/** Node visits allowed: nodes may be shared in hostile JSON, and each sharing doubles the walk. */
const MAX_VISITS = 100_000;

const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

type Json = Record<string, unknown>;
type Vec3 = [number, number, number];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const at = (v: unknown, i: unknown): unknown => (typeof i === 'number' && Number.isInteger(i) && i >= 0 ? list(v)[i] : undefined);

/** A list of exactly `n` finite numbers, or undefined. */
function numbers(v: unknown, n: number): number[] | undefined {
  return Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]) : undefined;
}

function multiply(a: Mat4, b: Mat4): Mat4 {
  const out: number[] = [];
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row]! * b[col * 4 + k]!;
      out.push(sum);
    }
  }
  return out;
}

/** A node's local transform: its `matrix`, else translation, rotation (a unit quaternion x, y, z, w) and scale; null when it has none. */
function localMatrix(node: Json): Mat4 | null {
  const matrix = numbers(node.matrix, 16);
  if (matrix) return matrix;
  if (node.translation === undefined && node.rotation === undefined && node.scale === undefined) return null;
  const [tx, ty, tz] = (numbers(node.translation, 3) ?? [0, 0, 0]) as Vec3;
  const [x, y, z, w] = (numbers(node.rotation, 4) ?? [0, 0, 0, 1]) as [number, number, number, number];
  const [sx, sy, sz] = (numbers(node.scale, 3) ?? [1, 1, 1]) as Vec3;
  return [
    (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
    2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
    2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
    tx, ty, tz, 1,
  ];
}

/** The largest value of each normalized integer component type, by glTF `componentType`. */
const NORMALIZED_MAX: Record<number, number> = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };

/** An accessor's `min` and `max` as positions: normalized integers (KHR_mesh_quantization) read as the runtime reads them. */
function positionBounds(accessor: unknown): { min: number[]; max: number[] } | undefined {
  if (!isObject(accessor)) return undefined;
  const min = numbers(accessor.min, 3);
  const max = numbers(accessor.max, 3);
  if (!min || !max) return undefined;
  const scale = accessor.normalized === true ? NORMALIZED_MAX[accessor.componentType as number] : undefined;
  if (!scale) return { min, max };
  const read = (c: number): number => Math.max(c / scale, -1);
  return { min: min.map(read), max: max.map(read) };
}

/** The size of the default scene (the first scene when none is named, every root node when there are no scenes), or null when no mesh gives bounds. */
export function gltfDimensions(json: unknown): GltfDimensions | null {
  if (!isObject(json)) return null;
  const nodes = list(json.nodes);
  const scene = at(json.scenes, typeof json.scene === 'number' ? json.scene : 0);
  const roots = isObject(scene) ? list(scene.nodes) : rootNodes(nodes);
  const low = [Infinity, Infinity, Infinity];
  const high = [-Infinity, -Infinity, -Infinity];
  let visits = 0;
  const stack: Array<{ index: unknown; parent: Mat4 }> = roots.map((index) => ({ index, parent: IDENTITY }));
  while (stack.length) {
    if (++visits > MAX_VISITS) return null;
    const { index, parent } = stack.pop()!;
    const node = at(nodes, index);
    if (!isObject(node)) continue;
    const local = localMatrix(node);
    const world = local ? multiply(parent, local) : parent;
    for (const child of list(node.children)) stack.push({ index: child, parent: world });
    const mesh = at(json.meshes, node.mesh);
    if (!isObject(mesh)) continue;
    for (const primitive of list(mesh.primitives)) {
      const attributes = isObject(primitive) ? primitive.attributes : undefined;
      const bounds = isObject(attributes) ? positionBounds(at(json.accessors, attributes.POSITION)) : undefined;
      if (bounds) addBox(world, bounds, low, high);
    }
  }
  if (!low.every(Number.isFinite) || !high.every(Number.isFinite)) return null;
  return [0, 1, 2].map((i) => round(high[i]! - low[i]!)) as GltfDimensions;
}

/** The nodes no other node lists as a child. */
function rootNodes(nodes: unknown[]): number[] {
  const children = new Set(nodes.flatMap((n) => (isObject(n) ? list(n.children) : [])));
  return nodes.map((_, i) => i).filter((i) => !children.has(i));
}

/** Grows `low` and `high` by the eight corners of a box under a transform. */
function addBox(m: Mat4, { min, max }: { min: number[]; max: number[] }, low: number[], high: number[]): void {
  for (let corner = 0; corner < 8; corner++) {
    const p = [corner & 1 ? max[0]! : min[0]!, corner & 2 ? max[1]! : min[1]!, corner & 4 ? max[2]! : min[2]!];
    for (let row = 0; row < 3; row++) {
      const v = m[row]! * p[0]! + m[4 + row]! * p[1]! + m[8 + row]! * p[2]! + m[12 + row]!;
      if (!Number.isFinite(v)) continue;
      low[row] = Math.min(low[row]!, v);
      high[row] = Math.max(high[row]!, v);
    }
  }
}

/** Six significant digits: enough for any real object, without the float noise of a transform. */
function round(v: number): number {
  return Number(v.toPrecision(6));
}

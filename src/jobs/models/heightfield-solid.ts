/** A closed solid whose top follows a height field: top surface, four walls and a flat bottom. */
import { MeshBuilder, normalize, type MeshData } from './mesh-builder.ts';

/** A grid of heights (z, all > 0) over a `width` x `height` rectangle centred on the origin in the XY plane. */
export interface HeightField {
  columns: number;
  rows: number;
  /** Row by row from the top edge (y = +height/2); `columns * rows` values. */
  heights: Float32Array;
  width: number;
  height: number;
}

/** Meshes `field` into a watertight solid facing +Z; texture coordinates map the grid onto the image when `withUvs`. */
export function heightFieldSolid(field: HeightField, withUvs: boolean): MeshData {
  const { columns: cols, rows, heights, width, height } = field;
  if (cols < 2 || rows < 2) throw new Error(`a height field needs at least 2 x 2 samples, got ${cols} x ${rows}`);
  const mesh = new MeshBuilder(withUvs);
  const dx = width / (cols - 1);
  const dy = height / (rows - 1);
  const x = (i: number): number => -width / 2 + i * dx;
  const y = (j: number): number => height / 2 - j * dy;
  const h = (i: number, j: number): number => heights[j * cols + i]!;
  const uv = (i: number, j: number): [number, number] => [i / (cols - 1), j / (rows - 1)];

  // Top surface, smooth normals from central differences.
  const top = new Uint32Array(cols * rows);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const i0 = Math.max(i - 1, 0), i1 = Math.min(i + 1, cols - 1);
      const j0 = Math.max(j - 1, 0), j1 = Math.min(j + 1, rows - 1);
      const dzdx = (h(i1, j) - h(i0, j)) / ((i1 - i0) * dx);
      const dzdy = (h(i, j0) - h(i, j1)) / ((j1 - j0) * dy);
      top[j * cols + i] = mesh.vertex([x(i), y(j), h(i, j)], normalize(-dzdx, -dzdy, 1), uv(i, j));
    }
  }
  for (let j = 0; j < rows - 1; j++) {
    for (let i = 0; i < cols - 1; i++) {
      const a = top[j * cols + i]!, b = top[j * cols + i + 1]!, c = top[(j + 1) * cols + i]!, d = top[(j + 1) * cols + i + 1]!;
      mesh.triangle(a, c, d);
      mesh.triangle(a, d, b);
    }
  }

  // The border, clockwise seen from +Z: top edge left to right, right edge down, bottom edge right to left, left edge up.
  const border: Array<[number, number]> = [];
  for (let i = 0; i < cols - 1; i++) border.push([i, 0]);
  for (let j = 0; j < rows - 1; j++) border.push([cols - 1, j]);
  for (let i = cols - 1; i > 0; i--) border.push([i, rows - 1]);
  for (let j = rows - 1; j > 0; j--) border.push([0, j]);

  // Walls: one strip per side, flat normals.
  for (let k = 0; k < border.length; k++) {
    const [i0, j0] = border[k]!;
    const [i1, j1] = border[(k + 1) % border.length]!;
    const outward: [number, number, number] = j0 === 0 && j1 === 0 ? [0, 1, 0] : i0 === cols - 1 && i1 === cols - 1 ? [1, 0, 0] : j0 === rows - 1 && j1 === rows - 1 ? [0, -1, 0] : [-1, 0, 0];
    const a = mesh.vertex([x(i0), y(j0), h(i0, j0)], outward, uv(i0, j0));
    const b = mesh.vertex([x(i1), y(j1), h(i1, j1)], outward, uv(i1, j1));
    const c = mesh.vertex([x(i1), y(j1), 0], outward, uv(i1, j1));
    const d = mesh.vertex([x(i0), y(j0), 0], outward, uv(i0, j0));
    mesh.quadFacing(a, b, c, d, outward);
  }

  // Bottom: a fan from the centre through every border point, so that it meets the walls without T-junctions.
  const down: [number, number, number] = [0, 0, -1];
  const centre = mesh.vertex([0, 0, 0], down, [0.5, 0.5]);
  const ring = border.map(([i, j]) => mesh.vertex([x(i), y(j), 0], down, uv(i, j)));
  for (let k = 0; k < ring.length; k++) mesh.triangleFacing(centre, ring[k]!, ring[(k + 1) % ring.length]!, down);
  return mesh.build();
}

/** The width and height of a `columns` x `rows` image whose longest side measures `size`. */
export function fitSize(columns: number, rows: number, size: number): { width: number; height: number } {
  const scale = size / Math.max(columns, rows);
  return { width: columns * scale, height: rows * scale };
}

/** An indexed triangle mesh assembled vertex by vertex. */

/** A finished mesh: positions and normals per vertex, optional texture coordinates, triangles as indices. */
export interface MeshData {
  positions: Float32Array;
  normals: Float32Array;
  uvs?: Float32Array;
  indices: Uint32Array;
}

type Vec3 = readonly [number, number, number];

/** Collects vertices and triangles; triangles can be wound to face a given direction. */
export class MeshBuilder {
  private readonly positions: number[] = [];
  private readonly normals: number[] = [];
  private readonly uvs: number[] = [];
  private readonly indices: number[] = [];

  constructor(private readonly withUvs: boolean) {}

  get vertexCount(): number {
    return this.positions.length / 3;
  }

  /** Adds a vertex and returns its index. */
  vertex(p: Vec3, n: Vec3, uv: readonly [number, number] = [0, 0]): number {
    this.positions.push(p[0], p[1], p[2]);
    this.normals.push(n[0], n[1], n[2]);
    if (this.withUvs) this.uvs.push(uv[0], uv[1]);
    return this.vertexCount - 1;
  }

  /** Adds a triangle as given (counter-clockwise seen from its front). */
  triangle(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }

  /** Adds a triangle wound so that its front faces `outward`. */
  triangleFacing(a: number, b: number, c: number, outward: Vec3): void {
    const n = this.faceNormal(a, b, c);
    if (n[0] * outward[0] + n[1] * outward[1] + n[2] * outward[2] < 0) this.indices.push(a, c, b);
    else this.indices.push(a, b, c);
  }

  /** Adds the quad a-b-c-d (in order around its edge) as two triangles facing `outward`. */
  quadFacing(a: number, b: number, c: number, d: number, outward: Vec3): void {
    this.triangleFacing(a, b, c, outward);
    this.triangleFacing(a, c, d, outward);
  }

  build(): MeshData {
    return {
      positions: new Float32Array(this.positions),
      normals: new Float32Array(this.normals),
      uvs: this.withUvs ? new Float32Array(this.uvs) : undefined,
      indices: new Uint32Array(this.indices),
    };
  }

  private faceNormal(a: number, b: number, c: number): Vec3 {
    const p = this.positions;
    const ux = p[b * 3]! - p[a * 3]!, uy = p[b * 3 + 1]! - p[a * 3 + 1]!, uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
    const vx = p[c * 3]! - p[a * 3]!, vy = p[c * 3 + 1]! - p[a * 3 + 1]!, vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
    return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
  }
}

/** `v` scaled to unit length (unchanged when it is zero). */
export function normalize(x: number, y: number, z: number): [number, number, number] {
  const len = Math.hypot(x, y, z);
  return len === 0 ? [x, y, z] : [x / len, y / len, z / len];
}

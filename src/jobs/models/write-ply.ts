/** Writes coloured points as binary little-endian PLY. */

/** Points as parallel arrays: `xyz` (3 floats each) and `rgb` (3 bytes each). */
export interface PointCloud {
  xyz: Float32Array;
  rgb: Uint8Array;
}

const BYTES_PER_POINT = 15;

/** The PLY bytes of `cloud`, with `comment` lines in the header. */
export function writePly(cloud: PointCloud, comments: readonly string[] = []): Uint8Array {
  const count = cloud.xyz.length / 3;
  if (!Number.isInteger(count) || cloud.rgb.length !== count * 3) throw new Error('a point cloud needs 3 coordinates and 3 colour bytes per point');
  const header = [
    'ply',
    'format binary_little_endian 1.0',
    ...comments.map((c) => `comment ${c.replace(/[\r\n]/g, ' ')}`),
    `element vertex ${count}`,
    'property float x',
    'property float y',
    'property float z',
    'property uchar red',
    'property uchar green',
    'property uchar blue',
    'end_header',
    '',
  ].join('\n');
  const head = new TextEncoder().encode(header);
  const out = new Uint8Array(head.length + count * BYTES_PER_POINT);
  out.set(head, 0);
  const view = new DataView(out.buffer);
  for (let p = 0, o = head.length; p < count; p++, o += BYTES_PER_POINT) {
    view.setFloat32(o, cloud.xyz[p * 3]!, true);
    view.setFloat32(o + 4, cloud.xyz[p * 3 + 1]!, true);
    view.setFloat32(o + 8, cloud.xyz[p * 3 + 2]!, true);
    out[o + 12] = cloud.rgb[p * 3]!;
    out[o + 13] = cloud.rgb[p * 3 + 1]!;
    out[o + 14] = cloud.rgb[p * 3 + 2]!;
  }
  return out;
}

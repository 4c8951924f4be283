/** Extrudes traced outlines into a closed solid: a front cap, a back cap and flat walls. */
import { ShapeUtils, Vector2 } from 'three';
import { MeshBuilder, normalize, type MeshData } from './mesh-builder.ts';
import { ringArea, type Outline, type Ring } from './trace-outline.ts';

/** How pixel coordinates map to the model: `x' = (x - cx) * scale`, `y' = (cy - y) * scale`. */
export interface OutlinePlacement {
  scale: number;
  cx: number;
  cy: number;
  /** Size of the image in pixels, for texture coordinates. */
  width: number;
  height: number;
}

/** A solid from z = 0 to z = `depth` whose cross-section is `outlines`, textured by projecting the image along Z. */
export function extrudeOutlines(outlines: readonly Outline[], depth: number, place: OutlinePlacement): MeshData {
  const mesh = new MeshBuilder(true);
  const uv = (x: number, y: number): [number, number] => [x / place.width, y / place.height];
  const world = (x: number, y: number, z: number): [number, number, number] => [(x - place.cx) * place.scale, (place.cy - y) * place.scale, z];
  for (const outline of outlines) {
    // In pixel coordinates (y down) a counter-clockwise ring in the model has negative signed area.
    const outer = orient(outline.outer, -1);
    const holes = outline.holes.map((h) => orient(h, 1));
    const rings = [outer, ...holes];
    const flat = rings.flat();
    const faces = ShapeUtils.triangulateShape(
      outer.map(([x, y]) => new Vector2(x, -y)),
      holes.map((h) => h.map(([x, y]) => new Vector2(x, -y))),
    );
    for (const [z, normal] of [[depth, [0, 0, 1]], [0, [0, 0, -1]]] as const) {
      const ids = flat.map(([x, y]) => mesh.vertex(world(x, y, z), normal, uv(x, y)));
      for (const [a, b, c] of faces) mesh.triangleFacing(ids[a!]!, ids[b!]!, ids[c!]!, normal);
    }
    for (const ring of rings) {
      for (let k = 0; k < ring.length; k++) {
        const [x0, y0] = ring[k]!;
        const [x1, y1] = ring[(k + 1) % ring.length]!;
        const [wx0, wy0] = world(x0, y0, 0);
        const [wx1, wy1] = world(x1, y1, 0);
        if (wx0 === wx1 && wy0 === wy1) continue;
        const normal = normalize(wy1 - wy0, wx0 - wx1, 0);
        const a = mesh.vertex(world(x0, y0, depth), normal, uv(x0, y0));
        const b = mesh.vertex(world(x1, y1, depth), normal, uv(x1, y1));
        const c = mesh.vertex(world(x1, y1, 0), normal, uv(x1, y1));
        const d = mesh.vertex(world(x0, y0, 0), normal, uv(x0, y0));
        mesh.quadFacing(a, b, c, d, normal);
      }
    }
  }
  return mesh.build();
}

/** `ring` reversed if needed so that the sign of its area (in pixel coordinates) is `sign`. */
function orient(ring: Ring, sign: 1 | -1): Ring {
  return Math.sign(ringArea(ring)) === sign ? ring : [...ring].reverse();
}

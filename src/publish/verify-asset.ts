/** Structural checks of a downloaded asset before it may become a representation. */
import { validateGltfBytes } from '../registry/validate-gltf.ts';
import { AssetRejected } from './publish-error.ts';

/** Throws AssetRejected when the asset is not a valid file of its format: gltf-validator for glTF, the header for PLY. */
export async function verifyAsset(bytes: Uint8Array, format: string, what: string): Promise<void> {
  if (format === 'glb' || format === 'gltf') {
    const { findings } = await validateGltfBytes(bytes, { format, uri: `${what}.${format}`, maxErrors: 5 });
    if (findings.length) {
      const lines = findings.map((f) => `  ${f.pointer ? `${f.pointer}: ` : ''}${f.message}`);
      throw new AssetRejected(`${what} is not a valid ${format.toUpperCase()} asset (gltf-validator):\n${lines.join('\n')}`);
    }
    return;
  }
  if (format === 'ply') {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 4096)));
    if (!/^ply\r?\n/.test(head) || !/\nend_header\r?\n/.test(head)) {
      throw new AssetRejected(`${what} is not a PLY file: it must start with "ply" and a header that ends with "end_header"`);
    }
    const format = /\nformat (ascii|binary_little_endian|binary_big_endian) 1\.0\r?\n/.exec(head);
    if (!format) throw new AssetRejected(`${what} is not a PLY file: its header has no "format ... 1.0" line`);
    return;
  }
  throw new AssetRejected(`${what} has the format "${format}", which this registry cannot verify; publish glb, gltf or ply assets`);
}

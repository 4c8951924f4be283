import { describe, expect, it } from 'vitest';
import { failedView, fetchingView, hashingView, loadedView, unsupportedView } from '../../src/viewer/viewer-state.ts';

const mesh = { id: 'mesh', format: 'glb', byteLength: 1234567, hash: `sha256-${'A'.repeat(43)}=` };
const cloud = { id: 'cloud', type: 'point-cloud', format: 'ply', mediaType: 'application/octet-stream' };

describe('viewer views', () => {
  it('shows bytes received of bytes declared while fetching', () => {
    const view = fetchingView(mesh, 65536);
    expect(view.text).toBe('mesh.glb: 65,536 of 1,234,567 bytes');
    expect(view.progress).toEqual({ received: 65536, total: 1234567 });
  });

  it('shows bytes hashed of the whole while a large file is hashed', () => {
    const view = hashingView(mesh, 65536);
    expect(view).toMatchObject({ state: 'verifying', label: 'Verifying', text: 'mesh.glb: hashing, 65,536 of 1,234,567 bytes (SHA-256)', progress: { received: 65536, total: 1234567 } });
  });

  it('says what was verified once loaded', () => {
    expect(loadedView(mesh, true).text).toBe(`mesh.glb: 1,234,567 bytes, SHA-256 ${mesh.hash} verified; glTF validated with no errors`);
    expect(loadedView({ ...mesh, format: 'jpg' }, false).text).toBe(`mesh.jpg: 1,234,567 bytes, SHA-256 ${mesh.hash} verified`);
  });

  it('names the failed check', () => {
    expect(failedView(mesh, 'byte-length', 'byte length mismatch: expected 2, got 1')).toMatchObject({
      reason: 'byte-length',
      text: 'mesh.glb: byte length mismatch: expected 2, got 1',
      representation: 'mesh',
    });
  });

  it('gives the Unsupported state the exact reports', () => {
    const view = unsupportedView([cloud]);
    expect(view.text).toBe('Preview unavailable');
    expect(view.report).toBe(
      'No compatible representation: cloud/browser-gltf: type "point-cloud" is not supported; expected mesh; format "ply" is not supported; expected gltf, glb; media type "application/octet-stream" is not supported; expected model/gltf+json, model/gltf-binary | cloud/browser-image: type "point-cloud" is not supported; expected image; format "ply" is not supported; expected png, jpg, jpeg, webp, avif; media type "application/octet-stream" is not supported; expected image/png, image/jpeg, image/webp, image/avif',
    );
  });
});

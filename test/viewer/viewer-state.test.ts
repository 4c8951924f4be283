import { describe, expect, it } from 'vitest';
import { failedView, fetchingView, hashingView, idleView, loadedView, unsupportedView } from '../../src/viewer/viewer-state.ts';

const mesh = { id: 'mesh', format: 'glb', byteLength: 1234567, hash: `sha256-${'A'.repeat(43)}=` };
const cloud = { id: 'cloud', type: 'point-cloud', format: 'ply', mediaType: 'application/octet-stream' };

describe('viewer views', () => {
  it('shows bytes received of bytes declared while fetching', () => {
    const view = fetchingView(mesh, 65536);
    expect(view.text).toBe('mesh.glb: 65.5 KB of 1.2 MB');
    expect(view.progress).toEqual({ received: 65536, total: 1234567 });
  });

  it('shows bytes hashed of the whole while a large file is hashed', () => {
    const view = hashingView(mesh, 65536);
    expect(view).toMatchObject({ state: 'verifying', label: 'Verifying', text: 'mesh.glb: hashing, 65.5 KB of 1.2 MB (SHA-256)', progress: { received: 65536, total: 1234567 } });
  });

  it('says what was verified once loaded: a short line for people, the full hash in the detail', () => {
    expect(loadedView(mesh, true)).toMatchObject({
      state: 'loaded',
      label: 'Loaded',
      text: 'Verified · 1.2 MB · SHA-256 matches',
      detail: `mesh.glb: 1,234,567 bytes, SHA-256 ${mesh.hash} verified; glTF validated with no errors`,
    });
    expect(loadedView({ ...mesh, format: 'jpg', byteLength: 55684 }, false)).toMatchObject({
      text: 'Verified · 55.7 KB · SHA-256 matches',
      detail: `mesh.jpg: 55,684 bytes, SHA-256 ${mesh.hash} verified`,
    });
  });

  it('says before any inspection what the viewer waits for, and why, in the detail', () => {
    expect(idleView()).toMatchObject({ state: 'idle', text: 'Not loaded yet', detail: expect.stringContaining('byte length, SHA-256') });
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

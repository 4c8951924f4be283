import { describe, expect, it } from 'vitest';
import {
  ALL_MATCH,
  compatibilityReport,
  compatibleRuntimes,
  mismatches,
  noCompatibleText,
  pickPresentable,
  RUNTIMES,
  runtimeReports,
} from '../../src/core/compatibility.ts';

const cloud = { id: 'cloud', type: 'point-cloud', format: 'ply', mediaType: 'application/octet-stream' };
const mesh = { id: 'mesh', type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary' };
const image = { id: 'reference', type: 'image', format: 'jpg', mediaType: 'image/jpeg' };

// DESIGN §6, verbatim.
const CLOUD_REPORT =
  'cloud/browser-gltf: type "point-cloud" is not supported; expected mesh; format "ply" is not supported; expected gltf, glb; media type "application/octet-stream" is not supported; expected model/gltf+json, model/gltf-binary | cloud/browser-image: type "point-cloud" is not supported; expected image; format "ply" is not supported; expected png, jpg, jpeg, webp, avif; media type "application/octet-stream" is not supported; expected image/png, image/jpeg, image/webp, image/avif';

describe('compatibility', () => {
  it('reproduces the PLY point cloud example of the design verbatim', () => {
    expect(compatibilityReport(cloud, true)).toBe(CLOUD_REPORT);
  });

  it('writes runtimes without the representation id unless asked', () => {
    expect(compatibilityReport(mesh)).toBe(
      `browser-gltf: ${ALL_MATCH} | browser-image: type "mesh" is not supported; expected image; format "glb" is not supported; expected png, jpg, jpeg, webp, avif; media type "model/gltf-binary" is not supported; expected image/png, image/jpeg, image/webp, image/avif`,
    );
  });

  it('reports mismatches in the order type, format, media type', () => {
    expect(mismatches({ type: 'mesh', format: 'obj', mediaType: 'model/obj' }, RUNTIMES[0]!)).toEqual([
      'format "obj" is not supported; expected gltf, glb',
      'media type "model/obj" is not supported; expected model/gltf+json, model/gltf-binary',
    ]);
  });

  it('says all declared capabilities match for a runtime that can load it', () => {
    expect(runtimeReports(image)[1]).toEqual({ runtime: 'browser-image', compatible: true, report: 'all declared capabilities match' });
    expect(compatibleRuntimes(image)).toEqual(['browser-image']);
    expect(compatibleRuntimes(mesh)).toEqual(['browser-gltf']);
    expect(compatibleRuntimes(cloud)).toEqual([]);
  });

  it('picks the first representation a runtime can load, in runtime order', () => {
    expect(pickPresentable([image, cloud, mesh])).toEqual({ rep: mesh, runtime: 'browser-gltf' });
    expect(pickPresentable([cloud, image])).toEqual({ rep: image, runtime: 'browser-image' });
    expect(pickPresentable([cloud])).toBeUndefined();
  });

  it('writes the no-compatible text with every named report', () => {
    expect(noCompatibleText([cloud])).toBe(`No compatible representation: ${CLOUD_REPORT}`);
  });
});

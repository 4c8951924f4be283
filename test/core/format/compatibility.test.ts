import { describe, expect, it } from 'vitest';
import {
  ALL_MATCH,
  compatibilityReport,
  compatibleRuntimes,
  mismatches,
  noCompatibleText,
  pickPresentable,
  reportLine,
  RUNTIMES,
  runtimeReports,
} from '@aso-registry/core/format/compatibility';
import { BROWSER_GLTF_EXTENSIONS } from '@aso-registry/core/format/gltf-extensions';

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

  it('writes the same line from reports made once as from the representation', () => {
    for (const rep of [cloud, mesh, image]) {
      expect(reportLine(runtimeReports(rep), rep.id)).toBe(compatibilityReport(rep, true));
      expect(reportLine(runtimeReports(rep))).toBe(compatibilityReport(rep));
    }
    expect(reportLine(runtimeReports(cloud), 'cloud')).toBe(CLOUD_REPORT);
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

describe('glTF extensions', () => {
  const required = (...names: string[]) => ({ ...mesh, gltf: { extensionsRequired: names } });

  it('declares the supported extensions on browser-gltf only', () => {
    expect(RUNTIMES[0]!.extensions).toBe(BROWSER_GLTF_EXTENSIONS);
    expect(RUNTIMES[1]!.extensions).toBeUndefined();
  });

  it('accepts an asset whose required extensions are all supported, and one that requires none', () => {
    expect(compatibleRuntimes(required('KHR_draco_mesh_compression', 'KHR_texture_basisu'))).toEqual(['browser-gltf']);
    expect(compatibleRuntimes({ ...mesh, gltf: null })).toEqual(['browser-gltf']);
  });

  it('writes one mismatch per unsupported required extension, after type, format and media type, joined with "; "', () => {
    const list = BROWSER_GLTF_EXTENSIONS.join(', ');
    expect(runtimeReports(required('EXT_a', 'KHR_draco_mesh_compression', 'EXT_b', 'EXT_a'))[0]).toEqual({
      runtime: 'browser-gltf',
      compatible: false,
      report: `extension "EXT_a" is not supported; expected ${list}; extension "EXT_b" is not supported; expected ${list}`,
    });
    expect(mismatches({ type: 'model', format: 'glb', mediaType: 'model/gltf-binary', gltf: { extensionsRequired: ['EXT_a'] } }, RUNTIMES[0]!)).toEqual([
      'type "model" is not supported; expected mesh',
      `extension "EXT_a" is not supported; expected ${list}`,
    ]);
  });

  it('never picks such an asset, so the version has no installed runtime', () => {
    const bad = { ...required('EXT_a'), id: 'mesh' };
    expect(pickPresentable([bad])).toBeUndefined();
    expect(pickPresentable([bad, image])).toEqual({ rep: image, runtime: 'browser-image' });
    expect(noCompatibleText([bad])).toMatch(/^No compatible representation: mesh\/browser-gltf: extension "EXT_a" is not supported; expected EXT_mesh_gpu_instancing, .* \| mesh\/browser-image: type "mesh"/);
  });

  it('keeps the list sorted and free of duplicates', () => {
    expect([...BROWSER_GLTF_EXTENSIONS].sort()).toEqual(BROWSER_GLTF_EXTENSIONS);
    expect(new Set(BROWSER_GLTF_EXTENSIONS).size).toBe(BROWSER_GLTF_EXTENSIONS.length);
  });
});

import { describe, expect, it } from 'vitest';
import {
  externalResourceRefusal,
  externalResources,
  formatGltfFindings,
  gltfFindings,
  isAllowedGltfUri,
  refuseExternalResource,
  type GltfReport,
  type GltfResource,
} from '@aso-registry/core/format/gltf-rules';
import type { GltfMessage } from '@aso-registry/core/format/gltf-inventory';

function report(messages: GltfMessage[], resources: GltfResource[] = []): GltfReport {
  return { issues: { numErrors: messages.filter((m) => m.severity === 0).length, messages }, info: { resources } };
}

const error = (n: number): GltfMessage => ({ code: 'ACCESSOR_MIN_MISMATCH', message: `Declared minimum value ${n} does not match.`, severity: 0, pointer: `/accessors/${n}/min/0` });

describe('isAllowedGltfUri', () => {
  it.each(['data:application/octet-stream;base64,AAAA', 'DATA:image/png;base64,AA'])('allows %s', (uri) => {
    expect(isAllowedGltfUri(uri)).toBe(true);
  });

  it.each(['mesh.bin', '../mesh.bin', 'https://cdn.test/mesh.bin', 'file:///etc/passwd', '/abs/mesh.bin', ''])('refuses "%s"', (uri) => {
    expect(isAllowedGltfUri(uri)).toBe(false);
  });
});

describe('refuseExternalResource', () => {
  it('rejects with the reason', async () => {
    await expect(refuseExternalResource('mesh.bin')).rejects.toThrow(externalResourceRefusal('mesh.bin'));
    expect(externalResourceRefusal('mesh.bin')).toBe('external resource "mesh.bin" refused: only data: URIs or GLB-embedded buffers are allowed');
  });
});

describe('gltfFindings', () => {
  it('is empty for a report without errors (warnings and infos do not count)', () => {
    expect(gltfFindings(report([{ code: 'UNUSED_OBJECT', message: 'This object may be unused.', severity: 2, pointer: '/buffers/0' }]))).toEqual([]);
  });

  it('names each external URI once, not again as an I/O error', () => {
    const r = report(
      [{ code: 'IO_ERROR', message: 'Node Exception: refused', severity: 0, pointer: '/buffers/0/uri' }],
      [
        { pointer: '/buffers/0', storage: 'external', uri: 'mesh.bin' },
        { pointer: '/images/0', storage: 'data-uri', uri: 'data:image/png;base64,AA' },
        { pointer: '/buffers/1', storage: 'glb' },
      ],
    );
    expect(externalResources(r)).toEqual([{ pointer: '/buffers/0/uri', uri: 'mesh.bin' }]);
    expect(gltfFindings(r)).toEqual([
      { pointer: '/buffers/0/uri', message: 'references the external file "mesh.bin"; only data: URIs or GLB-embedded buffers are allowed' },
    ]);
  });

  it('lists the first errors with their pointer and counts the rest', () => {
    const r = report([1, 2, 3, 4, 5, 6, 7].map(error));
    const findings = gltfFindings(r, 2);
    expect(findings).toEqual([
      { pointer: '/accessors/1/min/0', message: 'gltf-validator ACCESSOR_MIN_MISMATCH: Declared minimum value 1 does not match.' },
      { pointer: '/accessors/2/min/0', message: 'gltf-validator ACCESSOR_MIN_MISMATCH: Declared minimum value 2 does not match.' },
      { message: 'gltf-validator reported 5 more errors' },
    ]);
    expect(gltfFindings(report([1, 2].map(error)), 1).at(-1)).toEqual({ message: 'gltf-validator reported 1 more error' });
  });

  it('counts errors beyond a truncated message list', () => {
    const r: GltfReport = { issues: { numErrors: 40, messages: [error(1)], truncated: true } };
    expect(gltfFindings(r, 5)).toEqual([
      { pointer: '/accessors/1/min/0', message: 'gltf-validator ACCESSOR_MIN_MISMATCH: Declared minimum value 1 does not match.' },
      { message: 'gltf-validator reported 39 more errors' },
    ]);
  });

  it('gives the byte offset of a GLB error without a pointer', () => {
    const r = report([{ code: 'GLB_UNEXPECTED_END_OF_CHUNK_DATA', message: 'Unexpected end of chunk data.', severity: 0, offset: 20 }]);
    expect(gltfFindings(r)).toEqual([{ message: 'gltf-validator GLB_UNEXPECTED_END_OF_CHUNK_DATA: Unexpected end of chunk data. (at byte 20)' }]);
  });

  it('formats findings on one line', () => {
    expect(formatGltfFindings([{ pointer: '/a', message: 'x' }, { message: 'y' }])).toBe('/a: x; y');
  });
});

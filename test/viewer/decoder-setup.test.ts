import { describe, expect, it } from 'vitest';
import { configureDecoders } from '../../src/viewer/decoder-setup.ts';

const locations = { draco: '/decoders/three-1/draco/', ktx2: '/decoders/three-1/basis/', meshopt: '/decoders/meshoptimizer-1/meshopt_decoder.js' };

describe('configureDecoders', () => {
  it('points model-viewer at the decoders of this site, keeping what else was configured', () => {
    const scope: { ModelViewerElement?: Record<string, unknown> } = { ModelViewerElement: { powerPreference: 'low-power' } };
    configureDecoders(locations, 'https://site.test/sub/page/', { meshopt: false }, scope);
    expect(scope.ModelViewerElement).toEqual({
      powerPreference: 'low-power',
      dracoDecoderLocation: 'https://site.test/decoders/three-1/draco/',
      ktx2TranscoderLocation: 'https://site.test/decoders/three-1/basis/',
    });
  });

  it('gives the meshopt script only for an asset that uses it, and keeps it afterwards', () => {
    const scope: { ModelViewerElement?: Record<string, unknown> } = {};
    configureDecoders(locations, 'http://127.0.0.1:4321/', { meshopt: true }, scope);
    expect(scope.ModelViewerElement?.meshoptDecoderLocation).toBe('http://127.0.0.1:4321/decoders/meshoptimizer-1/meshopt_decoder.js');
    configureDecoders(locations, 'http://127.0.0.1:4321/', { meshopt: false }, scope);
    expect(scope.ModelViewerElement?.meshoptDecoderLocation).toBe('http://127.0.0.1:4321/decoders/meshoptimizer-1/meshopt_decoder.js');
  });
});

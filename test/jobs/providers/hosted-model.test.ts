import { describe, expect, it } from 'vitest';
import { hostedModel, placeImage } from '../../../src/jobs/providers/hosted-model.ts';
import { ProviderSetupError } from '../../../src/jobs/providers/provider.ts';

describe('hostedModel', () => {
  it('records a GLB mesh with the options as its parameters', () => {
    expect(hostedModel('meshy', 'meshy-6', { topology: 'quad' }, { ai_model: '--model' })).toEqual({
      id: 'meshy-6',
      name: 'meshy-6',
      provider: 'meshy',
      output: { type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary' },
      parameters: { topology: 'quad' },
    });
  });

  it('refuses an option the adapter fills itself, naming the flag that sets it', () => {
    expect(() => hostedModel('meshy', 'meshy-6', { ai_model: 'meshy-5' }, { ai_model: '--model' })).toThrow(
      new ProviderSetupError('--option ai_model: meshy gets "ai_model" from --model; leave the option out'),
    );
  });
});

describe('placeImage', () => {
  it('puts the image in the default field unless an option places it (as a value or an array item)', () => {
    expect(placeImage({ seed: 1 }, 'image_url', 'data:x')).toEqual({ seed: 1, image_url: 'data:x' });
    expect(placeImage({ input_image: '@image', seed: 1 }, 'image_url', 'data:x')).toEqual({ input_image: 'data:x', seed: 1 });
    expect(placeImage({ images: ['@image'] }, 'image', 'data:x')).toEqual({ images: ['data:x'] });
  });
});

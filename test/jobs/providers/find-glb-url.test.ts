import { describe, expect, it } from 'vitest';
import { outputFiles } from '../../../src/jobs/providers/find-glb-url.ts';

describe('outputFiles', () => {
  it("finds fal's File objects by media type or name, in document order", () => {
    const output = {
      model_mesh: { url: 'https://v3.fal.media/files/a/mesh', content_type: 'model/gltf-binary', file_name: 'mesh', file_size: 10 },
      preview: { url: 'https://v3.fal.media/files/a/preview.png', content_type: 'image/png', file_name: 'preview.png' },
      other: { url: 'https://v3.fal.media/files/a/second.glb' },
      seed: 42,
    };
    expect(outputFiles(output)).toEqual({ glb: ['https://v3.fal.media/files/a/mesh', 'https://v3.fal.media/files/a/second.glb'], others: ['preview.png'] });
  });

  it("finds Replicate's URL strings, alone, in arrays or in objects, ignoring query strings", () => {
    expect(outputFiles('https://replicate.delivery/x/output.glb?sig=1').glb).toEqual(['https://replicate.delivery/x/output.glb?sig=1']);
    expect(outputFiles(['https://replicate.delivery/x/a.obj', 'https://replicate.delivery/x/b.GLB'])).toEqual({ glb: ['https://replicate.delivery/x/b.GLB'], others: ['a.obj'] });
    expect(outputFiles({ color_video: 'https://replicate.delivery/x/color.mp4', text: 'not a url.glb' })).toEqual({ glb: [], others: ['color.mp4'] });
    expect(outputFiles(null)).toEqual({ glb: [], others: [] });
  });
});

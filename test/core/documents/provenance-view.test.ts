import { describe, expect, it } from 'vitest';
import { correctionOf, hasProvenance, provenanceView } from '@aso-registry/core/documents/provenance-view';
import { digestOf, manifest, rep } from '../records.ts';

const reference = rep('reference', 'jpg');

/** A provenance output that describes `r` (same URL, the hex of the same digest). */
const outputOf = (r: typeof reference, role: string, over: Record<string, unknown> = {}) => ({
  url: r.url,
  role,
  width: 512,
  height: 384,
  sha256: digestOf(r.id).hex,
  mediaType: r.mediaType,
  byteLength: r.byteLength,
  ...over,
});

describe('provenanceView', () => {
  it('reads the generator, the prompt, the pipeline run and the storage of the documented shape', () => {
    const view = provenanceView(
      manifest('lantern', '1.0.1', {
        provenance: {
          source: 'procedural mesh',
          prompt: { prefix: 'Studio photograph: ', source: 'a brass lantern', effective: 'Studio photograph: a brass lantern' },
          generator: { model: 'lathe', version: '1.0.0', provider: 'sample script', parameters: { segments: 24, handle: 'torus', nested: { a: [1, 2] } } },
          pipeline: { runId: 'run-1', manifestUrl: 'https://jobs.example/runs/1.json', manifestHash: 'ab', orchestrator: 'make', schemaVersion: '1' },
          storage: { provider: 'git', sourceKey: 'registry/objects/lantern' },
        },
      }),
    );
    expect(view.source).toBe('procedural mesh');
    expect(view.prompt).toEqual({ prefix: 'Studio photograph: ', source: 'a brass lantern', effective: 'Studio photograph: a brass lantern' });
    expect(view.generator).toEqual({
      model: 'lathe',
      version: '1.0.0',
      provider: 'sample script',
      parameters: [
        { name: 'segments', value: '24' },
        { name: 'handle', value: 'torus' },
        { name: 'nested', value: '{"a":[1,2]}' },
      ],
      moreParameters: 0,
    });
    expect(view.pipeline).toEqual({ runId: 'run-1', orchestrator: 'make', schemaVersion: '1', manifestUrl: 'https://jobs.example/runs/1.json', manifestHash: 'ab' });
    expect(view.storage).toEqual({ provider: 'git', sourceKey: 'registry/objects/lantern' });
    expect(view.correction).toBeNull();
    expect(hasProvenance(view)).toBe(true);
  });

  it('shows a reference image that is a file of this version from this site, and links other http(s) images without loading them', () => {
    const m = manifest('chair', '1.0.0', {
      representations: [rep('mesh', 'glb'), reference],
      provenance: {
        outputs: [
          outputOf(rep('mesh', 'glb'), 'mesh'),
          outputOf(reference, 'reference-image'),
          { url: 'https://elsewhere.example/source.png', role: 'source-image', mediaType: 'image/png', width: null, height: null },
          { url: 'javascript:alert(1)', role: 'source-image', mediaType: 'image/png' },
          { url: 'https://elsewhere.example/notes.txt', role: 'source-notes', mediaType: 'text/plain' },
        ],
      },
    });
    const { images } = provenanceView(m);
    expect(images).toEqual([
      { role: 'reference-image', representation: reference, externalUrl: null, width: 512, height: 384 },
      { role: 'source-image', representation: null, externalUrl: 'https://elsewhere.example/source.png', width: null, height: null },
    ]);
  });

  it('does not take an output for a file of the version when its digest differs', () => {
    const m = manifest('chair', '1.0.0', { representations: [reference], provenance: { outputs: [outputOf(reference, 'reference-image', { sha256: digestOf('other').hex })] } });
    expect(provenanceView(m).images).toEqual([{ role: 'reference-image', representation: null, externalUrl: reference.url, width: 512, height: 384 }]);
  });

  it('ignores members of another shape, and cuts long texts and long parameter lists', () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i]));
    const view = provenanceView(
      manifest('x', '1.0.0', {
        provenance: { source: 42, prompt: { source: 'y'.repeat(5000) }, generator: { model: 7, parameters: many }, pipeline: 'run', storage: {}, outputs: 'none' },
      }),
    );
    expect(view.source).toBeNull();
    expect(view.prompt!.source).toHaveLength(2001);
    expect(view.generator).toMatchObject({ model: null, moreParameters: 6 });
    expect(view.generator!.parameters).toHaveLength(24);
    expect([view.pipeline, view.storage, view.images]).toEqual([null, null, []]);
    expect(hasProvenance(provenanceView(manifest('x', '1.0.0', { provenance: {} })))).toBe(false);
  });
});

describe('correctionOf', () => {
  it('names the record a correction replaces', () => {
    const correction = { reason: 'wrong licence', sourceObject: { id: 'lantern', version: '1.0.0' }, sourcePublicationId: 'dd7f' };
    expect(correctionOf(manifest('lantern', '1.0.1', { provenance: { correction } }))).toEqual({ id: 'lantern', version: '1.0.0', reason: 'wrong licence', publicationId: 'dd7f' });
  });

  it('is null without a source object of id and version', () => {
    expect(correctionOf(manifest('a', '1.0.0'))).toBeNull();
    expect(correctionOf(manifest('a', '1.0.0', { provenance: { correction: { reason: 'r' } } }))).toBeNull();
    expect(correctionOf(manifest('a', '1.0.0', { provenance: { correction: { sourceObject: { id: 'a', version: 1 } } } }))).toBeNull();
  });
});

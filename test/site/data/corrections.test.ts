import { describe, expect, it } from 'vitest';
import type { Manifest } from '@aso-registry/core/format/types';
import { versionCorrections } from '../../../src/site/data/corrections.ts';
import type { SiteData, SiteObject } from '../../../src/site/data/site-model.ts';
import type { VersionEntry } from '../../../src/site/data/version-entry.ts';

/** A version entry whose provenance says what it corrects, if anything. */
function entry(id: string, version: string, corrects?: { id: string; version: string }): VersionEntry {
  const provenance = corrects ? { correction: { reason: `fixes ${corrects.id} ${corrects.version}`, sourceObject: corrects } } : {};
  const manifest = { schema: 'aso/object/v0.1', id, version, name: id, description: '', tags: [], createdAt: '2026-01-01T00:00:00Z', provenance, representations: [] } as Manifest;
  return { manifest, publication: { publicationId: `${id}@${version}`, publishedAt: '2026-01-01T00:00:00Z', publisher: 'test', recordHash: 'x' }, thumbnail: null, retracted: null, gltf: {} };
}

function site(...objects: Array<[string, VersionEntry[]]>): SiteData {
  const list: SiteObject[] = objects.map(([id, versions]) => ({ id, latest: versions[0]!.manifest.version, versions }));
  return { objects: list } as unknown as SiteData;
}

describe('versionCorrections', () => {
  const data = site(
    ['lamp', [entry('lamp', '1.0.2', { id: 'lamp', version: '1.0.0' }), entry('lamp', '1.0.1', { id: 'lamp', version: '1.0.0' }), entry('lamp', '1.0.0')]],
    ['shade', [entry('shade', '2.0.0', { id: 'lamp', version: '0.9.0' })]],
  );

  it('links a correction to the version it corrects', () => {
    expect(versionCorrections(data, 'lamp', '1.0.1')).toEqual({
      corrects: { id: 'lamp', version: '1.0.0', published: true, reason: 'fixes lamp 1.0.0' },
      correctedBy: [],
    });
  });

  it('links the corrected version to every correction', () => {
    expect(versionCorrections(data, 'lamp', '1.0.0')).toEqual({
      corrects: null,
      correctedBy: [
        { id: 'lamp', version: '1.0.2', published: true, reason: 'fixes lamp 1.0.0' },
        { id: 'lamp', version: '1.0.1', published: true, reason: 'fixes lamp 1.0.0' },
      ],
    });
  });

  it('names a corrected version the registry does not have without claiming it is published', () => {
    expect(versionCorrections(data, 'shade', '2.0.0').corrects).toEqual({ id: 'lamp', version: '0.9.0', published: false, reason: 'fixes lamp 0.9.0' });
  });
});

import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionDir } from '../../src/core/paths.ts';
import { readVersionEntries, type StoredVersion } from '../../src/site/read-version-entries.ts';
import { sri, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

describe('readVersionEntries', () => {
  let parent: string;
  let root: string;
  const stored: StoredVersion[] = [];
  beforeAll(async () => {
    ({ parent, root } = await tempRegistry());
    for (const version of ['1.0.0', '1.1.0']) {
      await writeVersion(root, { id: 'stool', version, files: [{ id: 'scan', type: 'pointcloud', format: 'ply', mediaType: 'application/ply', bytes: new TextEncoder().encode(`ply ${version}`) }] });
      const manifestBytes = await readFile(join(root, versionDir('stool', version), 'aso.object.json'));
      stored.push({ id: 'stool', version, recordHash: sri(manifestBytes), thumbnail: null, retracted: version === '1.0.0' ? { reason: 'wrong scale', retractedAt: '2026-01-02T00:00:00Z' } : null, gltf: {} });
    }
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('reads each manifest and publication record back, in the order given, with the stored fields', async () => {
    const entries = await readVersionEntries(stored, root);
    expect(entries.map((e) => e.manifest.version)).toEqual(['1.0.0', '1.1.0']);
    for (const [i, e] of entries.entries()) {
      const dir = join(root, versionDir('stool', e.manifest.version));
      expect(e.manifest).toEqual(JSON.parse(await readFile(join(dir, 'aso.object.json'), 'utf8')));
      expect(e.publication).toEqual(JSON.parse(await readFile(join(dir, 'publication.json'), 'utf8')));
      expect(e.retracted).toEqual(stored[i]!.retracted);
    }
  });

  it('stops, naming the manifest, when its bytes no longer match the checked record hash', async () => {
    const file = join(root, versionDir('stool', '1.1.0'), 'aso.object.json');
    const before = await readFile(file);
    try {
      await writeFile(file, before.toString('utf8').replace('"stool"', '"stool" '));
      await expect(readVersionEntries(stored, root)).rejects.toThrow(/1\.1\.0\/aso\.object\.json: changed during the build \(record hash sha256-/);
    } finally {
      await writeFile(file, before);
    }
  });
});

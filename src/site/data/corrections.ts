/**
 * Corrections both ways: the version a record corrects (its `provenance.correction`) and the versions that correct it,
 * found once per site so that a record page reads its notices without scanning every version.
 */
import { correctionOf, type CorrectionView } from '@aso-registry/core/documents/provenance-view';
import type { SiteData } from './site-model.ts';
import { findObject } from './site-data.ts';

/** A version a notice links to; `published` is false when the registry has no such version (the notice then names it without a link). */
interface CorrectionLink {
  id: string;
  version: string;
  published: boolean;
  reason: string | null;
}

/** The correction notices of one version. */
export interface VersionCorrections {
  /** The version this one corrects. */
  corrects: CorrectionLink | null;
  /** The versions that correct this one, newest first within each object. */
  correctedBy: CorrectionLink[];
}

const indexes = new WeakMap<SiteData, Map<string, CorrectionLink[]>>();

const key = (id: string, version: string): string => `${id}@${version}`;

/** Every corrected version, by `<id>@<version>`, with the published versions that correct it. */
function correctedIndex(data: SiteData): Map<string, CorrectionLink[]> {
  let index = indexes.get(data);
  if (index) return index;
  index = new Map();
  for (const object of data.objects) {
    for (const entry of object.versions) {
      const c = correctionOf(entry.manifest);
      if (!c) continue;
      const list = index.get(key(c.id, c.version)) ?? [];
      list.push({ id: object.id, version: entry.manifest.version, published: true, reason: c.reason });
      index.set(key(c.id, c.version), list);
    }
  }
  indexes.set(data, index);
  return index;
}

function published(data: SiteData, c: CorrectionView): boolean {
  return findObject(data, c.id)?.versions.some((v) => v.manifest.version === c.version) ?? false;
}

/** The correction notices of `id@version`. */
export function versionCorrections(data: SiteData, id: string, version: string): VersionCorrections {
  const entry = findObject(data, id)?.versions.find((v) => v.manifest.version === version);
  const c = entry ? correctionOf(entry.manifest) : null;
  return {
    corrects: c ? { id: c.id, version: c.version, published: published(data, c), reason: c.reason } : null,
    correctedBy: correctedIndex(data).get(key(id, version)) ?? [],
  };
}

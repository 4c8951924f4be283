/** The object versions of a built site, read from its `aso.object.json` files, and pickers for the kinds the viewer tests need. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pickPresentable } from '@aso-registry/core/format/compatibility';
import { versionPagePath } from '@aso-registry/core/format/paths';
import type { Manifest, Representation } from '@aso-registry/core/format/types';

/** One version of the built site. */
export interface SiteVersion {
  manifest: Manifest;
  /** The record page's path, with a leading slash. */
  pagePath: string;
}

/** Every version in `dist/objects/<id>/versions/<version>/aso.object.json`. */
export async function siteVersions(dist: string): Promise<SiteVersion[]> {
  const out: SiteVersion[] = [];
  for (const id of (await readdir(join(dist, 'objects'))).sort()) {
    const versionsDir = join(dist, 'objects', id, 'versions');
    const versions = await readdir(versionsDir).catch(() => [] as string[]);
    for (const version of versions.sort()) {
      const text = await readFile(join(versionsDir, version, 'aso.object.json'), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const manifest = JSON.parse(text) as Manifest;
      out.push({ manifest, pagePath: `/${versionPagePath(manifest.id, manifest.version)}` });
    }
  }
  return out;
}

/** The first version that matches, or an error that says which kind the sample registry lacks. */
export function pickVersion(versions: readonly SiteVersion[], kind: 'mesh' | 'image-only' | 'unsupported'): SiteVersion {
  const test: Record<typeof kind, (reps: Representation[]) => boolean> = {
    mesh: (reps) => pickPresentable(reps)?.runtime === 'browser-gltf',
    'image-only': (reps) => reps.every((r) => r.type === 'image') && pickPresentable(reps)?.runtime === 'browser-image',
    unsupported: (reps) => pickPresentable(reps) === undefined,
  };
  const found = versions.find((v) => test[kind](v.manifest.representations));
  if (!found) throw new Error(`the sample site has no ${kind} version (of ${versions.length} versions)`);
  return found;
}

/** The representation the viewer shows first. */
export function shownRepresentation(v: SiteVersion): Representation {
  const pick = pickPresentable(v.manifest.representations);
  if (!pick) throw new Error(`${v.manifest.id} ${v.manifest.version} has no presentable representation`);
  return pick.rep;
}

/** The site path a representation URL is served at (decoded, as the static server sees it). */
export function servedPath(rep: Pick<Representation, 'url'>): string {
  return decodeURIComponent(new URL(rep.url).pathname);
}

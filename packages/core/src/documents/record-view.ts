/** The texts of a record page (DESIGN §6), computed from a manifest. Pure, so tests can check them without a build. */
import { noCompatibleText, pickPresentable, RUNTIMES, mismatches, type Capabilities } from '../format/compatibility.ts';
import { formatCount } from './format-count.ts';
import type { GltfInventory } from '../format/gltf-inventory.ts';
import type { Manifest } from '../format/types.ts';

/** Shown when the manifest has no license. */
const LICENSE_NOT_DECLARED = 'Not declared';

/** The license label of the publication record. */
export function licenseLabel(manifest: Manifest): string {
  return manifest.license ?? LICENSE_NOT_DECLARED;
}

/** The generator label: the manifest's `generator`, else `provenance.generator` as `<model> <version>`, else `Not declared`. */
export function generatorLabel(manifest: Manifest): string {
  if (manifest.generator) return manifest.generator;
  const g = manifest.provenance.generator as { model?: unknown; version?: unknown; provider?: unknown } | undefined;
  if (g && typeof g.model === 'string') {
    const version = typeof g.version === 'string' ? ` ${g.version}` : '';
    const provider = typeof g.provider === 'string' ? ` (${g.provider})` : '';
    return `${g.model}${version}${provider}`;
  }
  return 'Not declared';
}

/** What the record page says about runtimes. */
export type CompatibilitySummary =
  | { compatible: true; heading: 'Runtime compatible'; lines: string[] }
  | { compatible: false; heading: 'No installed runtime'; state: 'Preview unavailable'; label: 'Unsupported'; report: string };

/** `Runtime compatible` with one `<runtime> can load representation <rep>` line per match, or the Unsupported texts. */
export function compatibilitySummary(representations: ReadonlyArray<Capabilities & { id: string }>): CompatibilitySummary {
  if (!pickPresentable(representations)) {
    return {
      compatible: false,
      heading: 'No installed runtime',
      state: 'Preview unavailable',
      label: 'Unsupported',
      report: noCompatibleText(representations),
    };
  }
  const lines: string[] = [];
  for (const rep of representations) {
    for (const runtime of RUNTIMES) {
      if (mismatches(rep, runtime).length === 0) lines.push(`${runtime.id} can load representation ${rep.id}`);
    }
  }
  return { compatible: true, heading: 'Runtime compatible', lines };
}

/** One line of a glTF representation's inventory on the record page. */
export interface InventoryItem {
  /** A stable key, the field of `GltfInventory`. */
  key: keyof GltfInventory;
  label: string;
  value: string;
}

/** The inventory of a glTF representation as the record page lists it: counts with thousands separators, then the extensions (`none` when empty). */
export function inventoryItems(inv: GltfInventory): InventoryItem[] {
  const counts: Array<[keyof GltfInventory, string, number]> = [
    ['triangles', 'Triangles', inv.triangles],
    ['vertices', 'Vertices', inv.vertices],
    ['drawCalls', 'Draw calls', inv.drawCalls],
    ['materials', 'Materials', inv.materials],
    ['textures', 'Textures', inv.textures],
    ['animations', 'Animations', inv.animations],
    ['skins', 'Skins', inv.skins],
  ];
  const list = (names: readonly string[]): string => (names.length ? names.join(', ') : 'none');
  return [
    ...counts.map(([key, label, n]) => ({ key, label, value: formatCount(n) })),
    { key: 'extensionsUsed', label: 'Extensions used', value: list(inv.extensionsUsed) },
    { key: 'extensionsRequired', label: 'Extensions required', value: list(inv.extensionsRequired) },
  ];
}

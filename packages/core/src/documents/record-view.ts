/** The texts of a record page (DESIGN §6), computed from a manifest. Pure, so tests can check them without a build. */
import { compatibilityReport, noCompatibleText, pickPresentable, RUNTIMES, mismatches, type Capabilities } from '../format/compatibility.ts';
import { formatCount } from './format-count.ts';
import type { GltfDimensions } from '../format/gltf-bounds.ts';
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
    ...(inv.dimensions ? [{ key: 'dimensions' as const, label: 'Size', value: formatDimensions(inv.dimensions) }] : []),
    { key: 'extensionsUsed', label: 'Extensions used', value: list(inv.extensionsUsed) },
    { key: 'extensionsRequired', label: 'Extensions required', value: list(inv.extensionsRequired) },
  ];
}

/** What a fact shows for a representation that does not have it (an image's triangles, a point cloud's size). */
export const NO_FACT = '—';

const METRES = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** Width × height × depth in metres, three significant digits each: `0.45 × 0.9 × 0.45 m`. */
export function formatDimensions([x, y, z]: GltfDimensions): string {
  return `${METRES.format(x)} × ${METRES.format(y)} × ${METRES.format(z)} m`;
}

/** One fact of the summary beside the viewer. */
export interface RecordFact {
  key: 'triangles' | 'vertices' | 'materials' | 'textures' | 'animations' | 'dimensions';
  label: string;
  value: string;
}

/** The facts at a glance of the representation the viewer shows: its glTF counts and size, {@link NO_FACT} for what it does not have. */
export function recordFacts(gltf: GltfInventory | null | undefined): RecordFact[] {
  const count = (n: number | undefined): string => (gltf && n !== undefined ? formatCount(n) : NO_FACT);
  return [
    { key: 'triangles', label: 'Triangles', value: count(gltf?.triangles) },
    { key: 'vertices', label: 'Vertices', value: count(gltf?.vertices) },
    { key: 'materials', label: 'Materials', value: count(gltf?.materials) },
    { key: 'textures', label: 'Textures', value: count(gltf?.textures) },
    { key: 'animations', label: 'Animations', value: count(gltf?.animations) },
    { key: 'dimensions', label: 'Size', value: gltf?.dimensions ? formatDimensions(gltf.dimensions) : NO_FACT },
  ];
}

/** How the page names a publisher: a label as it is; an opaque identifier marked, and shortened when long. */
export interface PublisherView {
  text: string;
  /** The publisher string as recorded. */
  full: string;
  /** True for an identifier rather than a name (one word with digits, such as `pub_7Q2M9XK4` or a UUID). */
  opaque: boolean;
}

/** Identifiers longer than this are shortened on the page (the full one stays in its title and the publication record). */
const SHORT_ID = 16;

/** The publisher as the summary shows it. */
export function publisherView(publisher: string): PublisherView {
  const opaque = /^\S+$/.test(publisher) && /\d/.test(publisher);
  const text = opaque && publisher.length > SHORT_ID ? `${publisher.slice(0, SHORT_ID - 4)}…${publisher.slice(-3)}` : publisher;
  return { text, full: publisher, opaque };
}

/** The compatibility of one representation, written once: a short line, and the full report to fold. */
export interface RepresentationCompatibility {
  id: string;
  /** The runtimes that load it. */
  runtimes: string[];
  /** `<runtime> can load representation <id>` for each, or that no installed runtime loads it. */
  line: string;
  /** The full report, `<id>/<runtime>: <report> | ...`. */
  report: string;
}

/** The compatibility of each representation, in manifest order. */
export function representationCompatibility(representations: ReadonlyArray<Capabilities & { id: string }>): RepresentationCompatibility[] {
  return representations.map((rep) => {
    const runtimes = RUNTIMES.filter((runtime) => mismatches(rep, runtime).length === 0).map((r) => r.id);
    const line = runtimes.length ? runtimes.map((r) => `${r} can load representation ${rep.id}`).join('; ') : `No installed runtime can load representation ${rep.id}`;
    return { id: rep.id, runtimes, line, report: compatibilityReport(rep, true) };
  });
}

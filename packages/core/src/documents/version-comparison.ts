/**
 * Two versions of an object side by side, as the compare page shows them: the facts of the file each viewer shows and of
 * all files, and the metadata, each row with both values and whether they differ. Read from the versions' API
 * documents, so the browser and the build compute the same rows. Pure.
 */
import { pickPresentable } from '../format/compatibility.ts';
import type { ApiRepresentation, ApiVersion } from './api-types.ts';
import { formatCount } from './format-count.ts';
import { generatorLabel, licenseLabel } from './record-view.ts';

/** One line of the comparison. */
export interface ComparisonRow {
  /** A stable key (`triangles`, `license`...). */
  key: string;
  label: string;
  a: string;
  b: string;
  changed: boolean;
  /** For a count that differs: `b - a` with its sign and, when `a` is not 0, its share of `a` (`+60 (+45%)`). */
  delta?: string;
}

/** The rows of a comparison, in the order the page shows them. */
export interface VersionComparison {
  facts: ComparisonRow[];
  metadata: ComparisonRow[];
}

/** What a side of the comparison reads of a version's API document. */
export type ComparedVersion = Pick<ApiVersion, 'version' | 'manifest' | 'publication' | 'representations' | 'worlds' | 'retracted'>;

const NONE = 'none';
const NOT_GLTF = 'n/a (not glTF)';

/** The file a version's facts describe: the one its viewer shows, else its first representation. */
export function shownRepresentation(v: Pick<ComparedVersion, 'representations'>): ApiRepresentation | undefined {
  const reps = v.representations.filter((r) => r.role === 'representation');
  return pickPresentable(reps)?.rep ?? reps[0];
}

/** The rows comparing `a` (usually the older) with `b`. */
export function compareVersions(a: ComparedVersion, b: ComparedVersion): VersionComparison {
  const shownA = shownRepresentation(a);
  const shownB = shownRepresentation(b);
  const gltfCount = (key: 'triangles' | 'vertices' | 'materials' | 'textures' | 'animations', label: string): ComparisonRow =>
    countRow(key, label, shownA?.gltf ? shownA.gltf[key] : undefined, shownB?.gltf ? shownB.gltf[key] : undefined);
  const gltfList = (key: 'extensionsUsed' | 'extensionsRequired', label: string): ComparisonRow =>
    textRow(key, label, shownA?.gltf ? listText(shownA.gltf[key]) : NOT_GLTF, shownB?.gltf ? listText(shownB.gltf[key]) : NOT_GLTF);
  const totalBytes = (v: ComparedVersion): number => v.representations.reduce((n, r) => n + r.byteLength, 0);
  const fileName = (r: ApiRepresentation | undefined): string => (r ? `${r.id}.${r.format}` : NONE);
  const facts = [
    textRow('file', 'Shown file', fileName(shownA), fileName(shownB)),
    gltfCount('triangles', 'Triangles'),
    gltfCount('vertices', 'Vertices'),
    gltfCount('materials', 'Materials'),
    gltfCount('textures', 'Textures'),
    gltfCount('animations', 'Animations'),
    countRow('bytes', 'Bytes (shown file)', shownA?.byteLength, shownB?.byteLength),
    gltfList('extensionsUsed', 'Extensions used'),
    gltfList('extensionsRequired', 'Extensions required'),
    textRow('hash', 'Hash (shown file)', shownA?.hash ?? NONE, shownB?.hash ?? NONE),
    countRow('files', 'Files (with the preview)', a.representations.length, b.representations.length),
    countRow('totalBytes', 'Bytes (all files)', totalBytes(a), totalBytes(b)),
  ];
  const reps = (v: ComparedVersion): string => v.representations.map((r) => `${r.id} (${r.role === 'preview' ? 'preview, ' : ''}${r.type} · ${r.format})`).join(', ');
  const retracted = (v: ComparedVersion): string => (v.retracted ? `Retracted on ${v.retracted.retractedAt}: ${v.retracted.reason}` : 'No');
  const metadata = [
    textRow('version', 'Version', a.version, b.version),
    textRow('name', 'Name', a.manifest.name, b.manifest.name),
    textRow('description', 'Description', a.manifest.description, b.manifest.description),
    textRow('tags', 'Tags', listText(a.manifest.tags), listText(b.manifest.tags)),
    textRow('license', 'License', licenseLabel(a.manifest), licenseLabel(b.manifest)),
    textRow('generator', 'Generator', generatorLabel(a.manifest), generatorLabel(b.manifest)),
    textRow('created', 'Created', a.manifest.createdAt, b.manifest.createdAt),
    textRow('published', 'Published', a.publication.publishedAt, b.publication.publishedAt),
    textRow('publisher', 'Publisher', a.publication.publisher, b.publication.publisher),
    textRow('representations', 'Representations', reps(a), reps(b)),
    textRow('worlds', 'Worlds', listText(a.worlds.map((w) => w.name)), listText(b.worlds.map((w) => w.name))),
    textRow('retracted', 'Retracted', retracted(a), retracted(b)),
    textRow('recordHash', 'Record hash', a.publication.recordHash, b.publication.recordHash),
  ];
  return { facts, metadata };
}

function listText(items: readonly string[]): string {
  return items.length ? items.join(', ') : NONE;
}

function textRow(key: string, label: string, a: string, b: string): ComparisonRow {
  return { key, label, a, b, changed: a !== b };
}

/** A count row: values with thousands separators, `n/a (not glTF)` where a side has none. */
function countRow(key: string, label: string, a: number | undefined, b: number | undefined): ComparisonRow {
  const row = textRow(key, label, a === undefined ? NOT_GLTF : formatCount(a), b === undefined ? NOT_GLTF : formatCount(b));
  if (a === undefined || b === undefined || a === b) return row;
  const diff = b - a;
  const sign = diff > 0 ? '+' : '-';
  const share = a === 0 ? '' : ` (${sign}${percent(Math.abs(diff) / a)})`;
  return { ...row, delta: `${sign}${formatCount(Math.abs(diff))}${share}` };
}

function percent(ratio: number): string {
  const p = Math.round(ratio * 100);
  return p === 0 ? '<1%' : `${formatCount(p)}%`;
}

/** A version as the compare page lists it, newest first. */
export interface ComparableVersion {
  version: string;
  prerelease: boolean;
  retracted: boolean;
}

/** The two versions to compare, and what was wrong with the query, each naming its parameter. */
export interface ComparePair {
  a: string;
  b: string;
  problems: string[];
}

/**
 * The pair a query asks for (`?a=<v>&b=<v>`), from `versions` newest first. By default the two newest releases (neither
 * a prerelease nor retracted), else the two newest versions, the older as `a`. A missing side takes its default, or the
 * other default when that is the version the query named; a version the object does not have is a problem, and its side
 * takes its default. Undefined when the object has fewer than two versions.
 */
export function comparePair(versions: readonly ComparableVersion[], query: { a?: string | null; b?: string | null }): ComparePair | undefined {
  if (versions.length < 2) return undefined;
  const releases = versions.filter((v) => !v.prerelease && !v.retracted);
  const [newer, older] = releases.length >= 2 ? [releases[0]!.version, releases[1]!.version] : [versions[0]!.version, versions[1]!.version];
  const problems: string[] = [];
  const known = (side: 'a' | 'b'): string | undefined => {
    const value = query[side];
    if (value === undefined || value === null || value === '') return undefined;
    if (versions.some((v) => v.version === value)) return value;
    problems.push(`${side}: "${value}" is not a version of this object`);
    return undefined;
  };
  const a = known('a');
  const b = known('b');
  if (a !== undefined && b !== undefined) return { a, b, problems };
  if (a !== undefined) return { a, b: a === newer ? older : newer, problems };
  if (b !== undefined) return { a: b === older ? newer : older, b, problems };
  return { a: older, b: newer, problems };
}

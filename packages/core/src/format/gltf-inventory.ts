/**
 * What a glTF asset is, at a glance, from gltf-validator's report: its size in triangles, vertices and draw calls, what
 * it holds, the extensions it uses and requires; and the validator's warnings and infos. Shared by the registry check,
 * the site, the API and the viewer. Pure.
 */
import { gltfDimensions, type GltfDimensions } from './gltf-bounds.ts';

/** One message of a gltf-validator report. */
export interface GltfMessage {
  code: string;
  message: string;
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
  pointer?: string;
  offset?: number;
}

/** The inventory of one glTF representation, as the record page, agent.json and the API show it. */
export interface GltfInventory {
  triangles: number;
  vertices: number;
  drawCalls: number;
  materials: number;
  textures: number;
  animations: number;
  skins: number;
  /** `extensionsUsed` of the asset. */
  extensionsUsed: string[];
  /** `extensionsRequired` of the asset: a runtime must support each of them to draw it. */
  extensionsRequired: string[];
  /** Width, height and depth of the default scene in metres (see gltf-bounds.ts); absent when no mesh gives bounds. */
  dimensions?: GltfDimensions;
}

/** The severities `npm run check` reports without failing (unless `--strict`, for warnings). */
export const GLTF_WARNING = 1;
const GLTF_INFO = 2;

/** One warning, info or hint of gltf-validator. */
interface GltfNote {
  code: string;
  message: string;
  severity: number;
  pointer?: string;
}

/** The validator's warnings, infos and hints for one file: exact counts, and the messages it listed. */
export interface GltfNotes {
  warnings: number;
  infos: number;
  hints: number;
  messages: GltfNote[];
  /** True when the validator stopped listing messages before the end. */
  truncated: boolean;
}

/** The parts of gltf-validator's `info` the inventory reads. */
export interface GltfReportInfo {
  extensionsUsed?: string[];
  extensionsRequired?: string[];
  animationCount?: number;
  materialCount?: number;
  drawCallCount?: number;
  totalVertexCount?: number;
  totalTriangleCount?: number;
}

/** The counts the validator's report does not give, and the size, read from the asset's JSON. */
export interface GltfJsonCounts {
  textures: number;
  skins: number;
  dimensions?: GltfDimensions;
}

const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : 0);
const names = (list: unknown): string[] => (Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);

/** The inventory from the validator's `info` and the counts taken from the JSON. */
export function gltfInventory(info: GltfReportInfo | undefined, json: GltfJsonCounts): GltfInventory {
  return {
    triangles: count(info?.totalTriangleCount),
    vertices: count(info?.totalVertexCount),
    drawCalls: count(info?.drawCallCount),
    materials: count(info?.materialCount),
    textures: json.textures,
    animations: count(info?.animationCount),
    skins: json.skins,
    extensionsUsed: names(info?.extensionsUsed),
    extensionsRequired: names(info?.extensionsRequired),
    ...(json.dimensions ? { dimensions: json.dimensions } : {}),
  };
}

/** The counts of `textures` and `skins` in a glTF JSON object (zero for what is absent), and its size. */
export function gltfJsonCounts(json: unknown): GltfJsonCounts {
  const doc = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const length = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
  const dimensions = gltfDimensions(json);
  return { textures: length(doc.textures), skins: length(doc.skins), ...(dimensions ? { dimensions } : {}) };
}

const GLB_MAGIC = 0x46546c67; // 'glTF'
const JSON_CHUNK = 0x4e4f534a; // 'JSON'

/**
 * The bytes that hold the JSON of a `.gltf` file or of a GLB's first chunk: for a GLB, from byte 20 for the length its
 * chunk header gives (to the end of the bytes when that is shorter, as a lenient reader would take it).
 */
export function gltfJsonBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength < 20) return bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) return bytes;
  return bytes.subarray(20, Math.min(bytes.byteLength, 20 + view.getUint32(12, true)));
}

/** The JSON of a `.gltf` file or of a GLB's first chunk, or undefined when the bytes hold neither. */
export function gltfJson(bytes: Uint8Array): unknown {
  if (bytes.byteLength >= 20) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) === GLB_MAGIC && (view.getUint32(16, true) !== JSON_CHUNK || 20 + view.getUint32(12, true) > bytes.byteLength)) return undefined;
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(gltfJsonBytes(bytes)));
  } catch {
    return undefined;
  }
}

/** The warnings, infos and hints of a report, with the validator's exact counts. */
export function gltfNotes(issues: { numWarnings?: number; numInfos?: number; numHints?: number; messages: GltfMessage[]; truncated?: boolean }): GltfNotes {
  return {
    warnings: count(issues.numWarnings),
    infos: count(issues.numInfos),
    hints: count(issues.numHints),
    messages: issues.messages
      .filter((m) => m.severity > 0)
      .map((m) => ({ code: m.code, message: m.message, severity: m.severity, ...(m.pointer !== undefined ? { pointer: m.pointer } : {}) })),
    truncated: issues.truncated === true,
  };
}

/** The distinct codes of the notes of one severity, in the order they first appear. */
export function noteCodes(notes: GltfNotes, severity: number): string[] {
  return [...new Set(notes.messages.filter((m) => m.severity === severity).map((m) => m.code))];
}

/**
 * One line about the warnings and infos of a file, or null when there are none:
 * `2 warnings (MESH_PRIMITIVE_UNUSED_TEXCOORD, ...), 1 info (UNSUPPORTED_EXTENSION)`, at most `max` codes each.
 */
export function formatNotes(notes: GltfNotes, max = 3): string | null {
  const part = (n: number, word: string, severity: number): string | null => {
    if (n === 0) return null;
    const codes = noteCodes(notes, severity);
    const shown = codes.slice(0, max).join(', ') + (codes.length > max ? ', ...' : '');
    return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}${shown ? ` (${shown})` : ''}`;
  };
  const parts = [part(notes.warnings, 'warning', GLTF_WARNING), part(notes.infos, 'info', GLTF_INFO)].filter((p) => p !== null);
  return parts.length ? parts.join(', ') : null;
}

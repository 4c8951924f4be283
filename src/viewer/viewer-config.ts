/** The viewer's configuration, written into the record page as JSON by Viewer.astro and read back by the island. */
import type { Representation } from '../core/types.ts';

/** What the island needs to know about the version it shows. */
export interface ViewerConfig {
  /** The manifest `name`: the accessible label of the 3D view. */
  name: string;
  /** The version's representations (not the preview), in manifest order. */
  representations: Representation[];
  /** The preview: its inventory row can be inspected too, and once verified it is the 3D view's poster. */
  preview?: Representation;
  /** The configured registry origin; URLs on it are fetched from the page's own origin. */
  registryUrl: string;
}

const REP_STRINGS = ['id', 'type', 'format', 'mediaType', 'url', 'hash'] as const;

/** Only the fields of a representation, in a fixed order (the API's extra fields are left out). */
export function pickRepresentation(rep: Representation): Representation {
  const { id, type, format, mediaType, url, byteLength, hash } = rep;
  return { id, type, format, mediaType, url, byteLength, hash };
}

/** The JSON text of a config, safe inside a `<script>` element. */
export function serializeConfig(config: ViewerConfig): string {
  const out: ViewerConfig = {
    name: config.name,
    representations: config.representations.map(pickRepresentation),
    registryUrl: config.registryUrl,
    ...(config.preview ? { preview: pickRepresentation(config.preview) } : {}),
  };
  return JSON.stringify(out).replace(/</g, '\\u003c');
}

/** Parses and checks the config text; throws an error naming the field that is wrong. */
export function parseConfig(text: string): ViewerConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`viewer config: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isObject(data)) throw new Error('viewer config: expected a JSON object');
  requireString(data, 'name', 'viewer config');
  requireString(data, 'registryUrl', 'viewer config');
  if (!Array.isArray(data.representations)) throw new Error('viewer config: "representations" must be an array');
  data.representations.forEach((rep, i) => checkRepresentation(rep, `viewer config /representations/${i}`));
  if (data.preview !== undefined) checkRepresentation(data.preview, 'viewer config /preview');
  return data as unknown as ViewerConfig;
}

function checkRepresentation(rep: unknown, where: string): void {
  if (!isObject(rep)) throw new Error(`${where}: expected an object`);
  for (const key of REP_STRINGS) requireString(rep, key, where);
  if (!Number.isSafeInteger(rep.byteLength) || (rep.byteLength as number) < 0) {
    throw new Error(`${where}: "byteLength" must be an integer >= 0, got ${JSON.stringify(rep.byteLength)}`);
  }
}

function requireString(obj: Record<string, unknown>, key: string, where: string): void {
  if (typeof obj[key] !== 'string') throw new Error(`${where}: "${key}" must be a string, got ${JSON.stringify(obj[key]) ?? 'nothing'}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

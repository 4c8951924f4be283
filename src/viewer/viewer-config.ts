/** The viewer's configuration, written into the record page as JSON by Viewer.astro and read back by the island. */
import type { DecoderLocations } from '@aso-registry/core/documents/decoders';
import type { Representation } from '@aso-registry/core/format/types';

/** A representation as the viewer knows it: for glTF, with the extensions the registry check found it requires. */
export type ViewerRepresentation = Representation & { gltf?: { extensionsRequired: string[] } };

/** What the island needs to know about the version it shows. */
export interface ViewerConfig {
  /** The manifest `name`: the accessible label of the 3D view. */
  name: string;
  /** The version's representations (not the preview), in manifest order. */
  representations: ViewerRepresentation[];
  /** The preview: its inventory row can be inspected too, and once verified it is the stage's poster. */
  preview?: ViewerRepresentation;
  /** The configured registry origin; URLs on it are fetched from the page's own origin. */
  registryUrl: string;
  /** Where `<model-viewer>` finds its decoders on this site (never another origin). */
  decoders: DecoderLocations;
}

const REP_STRINGS = ['id', 'type', 'format', 'mediaType', 'url', 'hash'] as const;
const DECODER_KEYS = ['draco', 'ktx2', 'meshopt'] as const;

/** Only the fields of a representation, in a fixed order (the API's extra fields are left out but the required glTF extensions). */
export function pickRepresentation(rep: Representation & { gltf?: { extensionsRequired: readonly string[] } | null }): ViewerRepresentation {
  const { id, type, format, mediaType, url, byteLength, hash } = rep;
  return { id, type, format, mediaType, url, byteLength, hash, ...(rep.gltf ? { gltf: { extensionsRequired: [...rep.gltf.extensionsRequired] } } : {}) };
}

/** The config as the page writes it: representations may carry the API's extra fields, which are left out. */
export type ViewerConfigInput = Omit<ViewerConfig, 'representations' | 'preview'> & {
  representations: Array<Parameters<typeof pickRepresentation>[0]>;
  preview?: Parameters<typeof pickRepresentation>[0];
};

/** The JSON text of a config, safe inside a `<script>` element. */
export function serializeConfig(config: ViewerConfigInput): string {
  const out: ViewerConfig = {
    name: config.name,
    representations: config.representations.map(pickRepresentation),
    registryUrl: config.registryUrl,
    ...(config.preview ? { preview: pickRepresentation(config.preview) } : {}),
    decoders: { draco: config.decoders.draco, ktx2: config.decoders.ktx2, meshopt: config.decoders.meshopt },
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
  if (!isObject(data.decoders)) throw new Error(`viewer config: "decoders" must be an object, got ${JSON.stringify(data.decoders) ?? 'nothing'}`);
  for (const key of DECODER_KEYS) requireString(data.decoders, key, 'viewer config /decoders');
  return data as unknown as ViewerConfig;
}

function checkRepresentation(rep: unknown, where: string): void {
  if (!isObject(rep)) throw new Error(`${where}: expected an object`);
  for (const key of REP_STRINGS) requireString(rep, key, where);
  if (!Number.isSafeInteger(rep.byteLength) || (rep.byteLength as number) < 0) {
    throw new Error(`${where}: "byteLength" must be an integer >= 0, got ${JSON.stringify(rep.byteLength)}`);
  }
  if (rep.gltf !== undefined) {
    const required = isObject(rep.gltf) ? rep.gltf.extensionsRequired : undefined;
    if (!Array.isArray(required) || !required.every((x) => typeof x === 'string')) {
      throw new Error(`${where}: "gltf.extensionsRequired" must be an array of strings, got ${JSON.stringify(required) ?? 'nothing'}`);
    }
  }
}

function requireString(obj: Record<string, unknown>, key: string, where: string): void {
  if (typeof obj[key] !== 'string') throw new Error(`${where}: "${key}" must be a string, got ${JSON.stringify(obj[key]) ?? 'nothing'}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

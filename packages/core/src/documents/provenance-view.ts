/**
 * A manifest's provenance as the record page shows it: the generator, the prompt, the source and reference images, the
 * pipeline run, and the record a correction replaces. `provenance` is free-form and written by whoever publishes, so
 * every member is read only when it has the expected shape, long texts are cut, and a link is kept only when it is
 * http(s). Pure.
 */
import type { Manifest, Representation } from '../format/types.ts';
import { sriToHex } from '../format/sri.ts';

/** Longest text shown for one value (a prompt, a reason); the manifest itself keeps all of it. */
const MAX_TEXT = 2000;
/** Most generator parameters listed. */
const MAX_PARAMETERS = 24;
/** Most source or reference images shown. */
const MAX_IMAGES = 6;

/** The generator of a version. */
export interface GeneratorView {
  model: string | null;
  version: string | null;
  provider: string | null;
  /** Each parameter as a name and its value written out. */
  parameters: Array<{ name: string; value: string }>;
  /** How many parameters were left out. */
  moreParameters: number;
}

/** An image the generator started from (a source or reference image). */
export interface ProvenanceImage {
  role: string;
  /** The representation (or preview) of this version with the same URL and SHA-256: shown from this site. */
  representation: Representation | null;
  /** Its URL when it is not a file of this version and is http(s): linked, never loaded by the page. */
  externalUrl: string | null;
  width: number | null;
  height: number | null;
}

/** The record a correction replaces. */
export interface CorrectionView {
  id: string;
  version: string;
  reason: string | null;
  publicationId: string | null;
}

/** Everything the provenance panel shows; null members are absent from the manifest. */
export interface ProvenanceView {
  source: string | null;
  generator: GeneratorView | null;
  prompt: { source: string | null; prefix: string | null; effective: string | null } | null;
  images: ProvenanceImage[];
  pipeline: { runId: string | null; orchestrator: string | null; schemaVersion: string | null; manifestUrl: string | null; manifestHash: string | null } | null;
  storage: { provider: string | null; sourceKey: string | null } | null;
  correction: CorrectionView | null;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-empty string, cut to {@link MAX_TEXT} characters, or null. */
function text(v: unknown): string | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  return v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v;
}

/** An http(s) URL, or null. */
function httpUrl(v: unknown): string | null {
  if (typeof v !== 'string' || !/^https?:\/\//i.test(v)) return null;
  try {
    return new URL(v).href;
  } catch {
    return null;
  }
}

const dimension = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

/** A parameter's value in one line: scalars as they are, anything else as JSON, cut short. */
function parameterValue(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

function generatorView(v: unknown): GeneratorView | null {
  if (!isObject(v)) return null;
  const params = isObject(v.parameters) ? Object.entries(v.parameters) : [];
  const view: GeneratorView = {
    model: text(v.model),
    version: text(v.version),
    provider: text(v.provider),
    parameters: params.slice(0, MAX_PARAMETERS).map(([name, value]) => ({ name: name.slice(0, 200), value: parameterValue(value) })),
    moreParameters: Math.max(0, params.length - MAX_PARAMETERS),
  };
  return view.model || view.version || view.provider || view.parameters.length ? view : null;
}

function promptView(v: unknown): ProvenanceView['prompt'] {
  if (typeof v === 'string') return text(v) ? { source: text(v), prefix: null, effective: null } : null;
  if (!isObject(v)) return null;
  const view = { source: text(v.source), prefix: text(v.prefix), effective: text(v.effective) };
  return view.source || view.effective ? view : null;
}

/** Whether an output is something the generator started from rather than something it made. */
const isInputRole = (role: string): boolean => /reference|source|input|prompt/i.test(role);

function imagesOf(outputs: unknown, files: readonly Representation[]): ProvenanceImage[] {
  const images: ProvenanceImage[] = [];
  for (const out of Array.isArray(outputs) ? outputs : []) {
    if (!isObject(out) || typeof out.role !== 'string' || !isInputRole(out.role)) continue;
    const mediaType = typeof out.mediaType === 'string' ? out.mediaType : '';
    const representation = files.find((f) => f.url === out.url && typeof out.sha256 === 'string' && sriToHexOrNull(f.hash) === out.sha256.toLowerCase()) ?? null;
    if (representation ? !representation.mediaType.startsWith('image/') : !mediaType.startsWith('image/')) continue;
    const externalUrl = representation ? null : httpUrl(out.url);
    if (!representation && !externalUrl) continue;
    images.push({ role: out.role.slice(0, 80), representation, externalUrl, width: dimension(out.width), height: dimension(out.height) });
    if (images.length === MAX_IMAGES) break;
  }
  return images;
}

function sriToHexOrNull(hash: string): string | null {
  try {
    return sriToHex(hash);
  } catch {
    return null;
  }
}

/** The record a version's `provenance.correction` says it replaces, when it names one by id and version. */
export function correctionOf(manifest: Pick<Manifest, 'provenance'>): CorrectionView | null {
  const c = manifest.provenance.correction;
  if (!isObject(c) || !isObject(c.sourceObject)) return null;
  const { id, version } = c.sourceObject;
  if (typeof id !== 'string' || typeof version !== 'string' || !id || !version) return null;
  return { id: id.slice(0, 200), version: version.slice(0, 200), reason: text(c.reason), publicationId: text(c.sourcePublicationId) };
}

/** The provenance panel of a version. */
export function provenanceView(manifest: Manifest): ProvenanceView {
  const p = manifest.provenance;
  const files = [...manifest.representations, ...(manifest.preview ? [manifest.preview] : [])];
  const pipeline = isObject(p.pipeline)
    ? {
        runId: text(p.pipeline.runId),
        orchestrator: text(p.pipeline.orchestrator),
        schemaVersion: text(p.pipeline.schemaVersion),
        manifestUrl: httpUrl(p.pipeline.manifestUrl),
        manifestHash: text(p.pipeline.manifestHash),
      }
    : null;
  const storage = isObject(p.storage) ? { provider: text(p.storage.provider), sourceKey: text(p.storage.sourceKey) } : null;
  return {
    source: text(p.source),
    generator: generatorView(p.generator),
    prompt: promptView(p.prompt),
    images: imagesOf(p.outputs, files),
    pipeline: pipeline && Object.values(pipeline).some((x) => x !== null) ? pipeline : null,
    storage: storage && (storage.provider || storage.sourceKey) ? storage : null,
    correction: correctionOf(manifest),
  };
}

/** Whether the panel has anything to show. */
export function hasProvenance(view: ProvenanceView): boolean {
  return Boolean(view.source || view.generator || view.prompt || view.images.length || view.pipeline || view.storage || view.correction);
}

/** The files of a sample version before they are written: meshes, pictures, a point cloud and a photograph. */
import { encodeImage, type RawImage } from './encode-image.ts';
import type { Model } from './geometry.ts';
import { assertValidGltf, checkGltf, type GltfCheck } from './gltf-check.ts';
import { modelDocument, toEmbeddedGltf, toGlb } from './gltf-document.ts';
import { previewPicture, referencePicture } from './pictures.ts';
import { encodePly, type PointCloud } from './point-cloud.ts';

/** One representation (or the preview) of a version: what the manifest declares plus the bytes. */
export interface SampleFile {
  id: string;
  type: string;
  format: string;
  mediaType: string;
  /** The role of the output in the provenance (`mesh`, `reference-image`, ...). */
  role: string;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
  /** The gltf-validator report of a mesh. */
  gltf?: GltfCheck;
}

/** The files of one version. */
export interface SampleFiles {
  representations: SampleFile[];
  preview?: SampleFile;
}

/** What every sample glTF says made it. */
const GLTF_GENERATOR = 'aso-registry sample (glTF-Transform)';

/** The model as `mesh.glb` or as a self-contained `mesh.gltf`, checked with gltf-validator (no errors allowed). */
export async function meshFile(model: Model, container: 'glb' | 'gltf', id = 'mesh'): Promise<SampleFile> {
  const doc = await modelDocument(model, { generator: GLTF_GENERATOR });
  const bytes = container === 'glb' ? await toGlb(doc) : await toEmbeddedGltf(doc, model.name);
  const uri = `${model.name}/${id}.${container}`;
  const gltf = await checkGltf(bytes, uri, container);
  assertValidGltf(gltf, uri);
  const mediaType = container === 'glb' ? 'model/gltf-binary' : 'model/gltf+json';
  return { id, type: 'mesh', format: container, mediaType, role: 'mesh', bytes, width: null, height: null, gltf };
}

/** The studio picture the mesh stands for, `reference.jpg`. */
export async function referenceFile(model: Model, azimuth?: number): Promise<SampleFile> {
  const p = await referencePicture(model, azimuth);
  return { id: 'reference', type: 'image', format: 'jpg', mediaType: 'image/jpeg', role: 'reference-image', ...p };
}

/** The catalogue picture, `preview.png` or `preview.jpg`. */
export async function previewFile(model: Model, format: 'png' | 'jpg', azimuth?: number): Promise<SampleFile> {
  const p = await previewPicture(model, format, azimuth);
  const mediaType = format === 'png' ? 'image/png' : 'image/jpeg';
  return { id: 'preview', type: 'image', format, mediaType, role: 'preview', ...p };
}

/** A point cloud as `cloud.ply`: a representation no browser runtime can present. */
export function pointCloudFile(cloud: PointCloud, comment: string): SampleFile {
  const bytes = encodePly(cloud, comment);
  return { id: 'cloud', type: 'point-cloud', format: 'ply', mediaType: 'application/octet-stream', role: 'point-cloud', bytes, width: null, height: null };
}

/** A photograph as `photo.jpg`, painted at twice the size and scaled down. */
export async function photoFile(paint: (width: number, height: number) => RawImage, width: number, height: number): Promise<SampleFile> {
  const bytes = await encodeImage(paint(width * 2, height * 2), { format: 'jpg', quality: 80, width });
  return { id: 'photo', type: 'image', format: 'jpg', mediaType: 'image/jpeg', role: 'photograph', bytes, width, height };
}

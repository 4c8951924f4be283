/**
 * The representation kinds the registry knows by file extension: `type`, `format` and `mediaType` as a manifest
 * declares them, and what `npm run new-version` fills in from a file name. The media type is the served content type
 * (content-types.ts), so a file is described and served alike. Pure.
 */
import { contentTypeOf } from './content-types.ts';

/** What a file of one extension is. */
export interface RepresentationKind {
  /** The file extension, which is also `format`. */
  format: string;
  type: 'mesh' | 'image' | 'point-cloud';
  mediaType: string;
  /** What it is, for the README's field reference. */
  note: string;
}

const kind = (format: string, type: RepresentationKind['type'], note: string): RepresentationKind => ({
  format,
  type,
  mediaType: contentTypeOf(`file.${format}`).split(';')[0]!.trim(),
  note,
});

/** Every kind, in the order the README lists them. */
export const REPRESENTATION_KINDS: readonly RepresentationKind[] = [
  kind('glb', 'mesh', 'binary glTF 2.0; shown by the viewer'),
  kind('gltf', 'mesh', 'glTF 2.0 JSON with every buffer and image as a data: URI; shown by the viewer'),
  kind('png', 'image', 'shown as an image'),
  kind('jpg', 'image', 'shown as an image'),
  kind('jpeg', 'image', 'shown as an image'),
  kind('webp', 'image', 'shown as an image'),
  kind('avif', 'image', 'shown as an image'),
  kind('ply', 'point-cloud', 'published and verified; no browser runtime shows it'),
];

/** The kind of a file by its extension (case-insensitive), or undefined for an extension the registry does not know. */
export function representationKind(fileName: string): RepresentationKind | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return REPRESENTATION_KINDS.find((k) => k.format === ext);
}

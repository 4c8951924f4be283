/** What the registry reader returns: the checked registry tree in memory (metadata only, never file bytes). */
import type { GltfInventory, GltfNotes } from '@aso-registry/core/format/gltf-inventory';
import type { Manifest, PublicationRecord, Representation, World } from '@aso-registry/core/format/types';
import type { ImageHeader } from './check-image.ts';

/** One file of a version, with where it lives on disk. */
export interface RegistryFile {
  rep: Representation;
  role: 'representation' | 'preview';
  /** Absolute path of the file on disk. */
  path: string;
  /** For a glTF file: what gltf-validator found in it (inventory, extensions) and its warnings and infos. */
  gltf?: { inventory: GltfInventory; notes: GltfNotes };
  /** For an image the image rule checks: the header it read (the thumbnail step reads it here rather than again). */
  image?: ImageHeader;
}

/** One checked object version. */
export interface RegistryVersion {
  id: string;
  version: string;
  /** Absolute path of the version folder. */
  dir: string;
  /** Absolute path of `aso.object.json`. */
  manifestFile: string;
  manifest: Manifest;
  publication: PublicationRecord;
  files: RegistryFile[];
}

/** One object with its versions, newest first (by createdAt, ties by SemVer). */
interface RegistryObject {
  id: string;
  versions: RegistryVersion[];
  /** The highest non-prerelease version (else the highest). */
  latest: string;
}

/** The whole registry. */
export interface Registry {
  /** Absolute path of the `registry/` folder. */
  root: string;
  registryUrl: string;
  objects: RegistryObject[];
  worlds: World[];
  /** Files read and verified, and files checked without their content (by Git LFS pointer, by size in the blob store). */
  stats: { objects: number; versions: number; files: number; bytes: number; byPointer: number; bySize: number };
}

/** One problem: the file (relative to the repository), a JSON pointer when there is one, and what is wrong. */
export interface Problem {
  file: string;
  pointer?: string;
  message: string;
}

/** `<file>: <pointer or "file">: <message>`, the line printed by `npm run check` and the build. */
export function formatProblem(p: Problem): string {
  return `${p.file}: ${p.pointer ?? 'file'}: ${p.message}`;
}

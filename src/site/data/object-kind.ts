/** What an object is at a glance, for its card's icon and label: the kind of its main representation. */

/** The kinds the site draws an icon for, the most telling first: a mesh with a reference image is a mesh. */
const KINDS = ['mesh', 'point-cloud', 'image'] as const;

/** The kinds a card names, as people read them. */
const LABELS: Record<string, string> = { mesh: 'Mesh', 'point-cloud': 'Point cloud', image: 'Image' };

/** The kind of a version: the first of mesh, point cloud and image it has a representation of, else its first representation's type. */
export function objectKind(manifest: { representations: ReadonlyArray<{ type: string }> }): string {
  const types = manifest.representations.map((r) => r.type);
  return KINDS.find((k) => types.includes(k)) ?? types[0] ?? 'file';
}

/** The label of a kind: `Mesh`, `Point cloud`, `Image`, or the type as the manifest spells it. */
export function kindLabel(kind: string): string {
  return LABELS[kind] ?? kind;
}

/** Whether the site has a drawn icon of its own for a kind (others get a generic one). */
export function hasKindIcon(kind: string): kind is (typeof KINDS)[number] {
  return (KINDS as readonly string[]).includes(kind);
}

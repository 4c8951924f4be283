/**
 * The one table of file extensions and the content types the site serves them with. The preview server, the generated
 * `_headers` file and the README's nginx example all read it, so every host serves every file the same way. Pure.
 */

/** One extension the site publishes. */
export interface ContentTypeEntry {
  /** Without the dot, lowercase. */
  ext: string;
  /** The `Content-Type` header. */
  type: string;
  /**
   * Whether nginx's stock `mime.types` already maps the extension (to this type or an equivalent one, such as
   * `application/javascript`), so that the nginx example adds only the others: redeclaring one makes nginx warn.
   */
  nginxKnows: boolean;
}

/** Every extension found in a built site (pages, API, feeds, published bytes, thumbnails, scripts, the search index). */
export const CONTENT_TYPES: readonly ContentTypeEntry[] = [
  { ext: 'html', type: 'text/html; charset=utf-8', nginxKnows: true },
  { ext: 'css', type: 'text/css; charset=utf-8', nginxKnows: true },
  { ext: 'js', type: 'text/javascript; charset=utf-8', nginxKnows: true },
  { ext: 'mjs', type: 'text/javascript; charset=utf-8', nginxKnows: false },
  { ext: 'json', type: 'application/json', nginxKnows: true },
  { ext: 'jsonl', type: 'application/jsonl', nginxKnows: false },
  { ext: 'xml', type: 'application/xml', nginxKnows: true },
  { ext: 'txt', type: 'text/plain; charset=utf-8', nginxKnows: true },
  { ext: 'svg', type: 'image/svg+xml', nginxKnows: true },
  { ext: 'png', type: 'image/png', nginxKnows: true },
  { ext: 'jpg', type: 'image/jpeg', nginxKnows: true },
  { ext: 'jpeg', type: 'image/jpeg', nginxKnows: true },
  { ext: 'webp', type: 'image/webp', nginxKnows: true },
  { ext: 'avif', type: 'image/avif', nginxKnows: true },
  { ext: 'wasm', type: 'application/wasm', nginxKnows: true },
  { ext: 'glb', type: 'model/gltf-binary', nginxKnows: false },
  { ext: 'gltf', type: 'model/gltf+json', nginxKnows: false },
  { ext: 'ply', type: 'application/octet-stream', nginxKnows: false },
  // Public keys of the transparency log and of publishers (`log.pub`, `publishers/<name>.pub`): one line of text.
  { ext: 'pub', type: 'text/plain; charset=utf-8', nginxKnows: false },
  // The search index (Pagefind): binary fragments, served as plain bytes.
  { ext: 'pagefind', type: 'application/octet-stream', nginxKnows: false },
  { ext: 'pf_fragment', type: 'application/octet-stream', nginxKnows: false },
  { ext: 'pf_index', type: 'application/octet-stream', nginxKnows: false },
  { ext: 'pf_meta', type: 'application/octet-stream', nginxKnows: false },
];

/**
 * Files without an extension that the site serves, by name. The log's tiles (`tile/...`) have none either and are
 * bytes, the default.
 */
export const NAMED_CONTENT_TYPES: Readonly<Record<string, string>> = {
  _headers: 'text/plain; charset=utf-8',
  // The transparency log's signed checkpoint, a C2SP signed note.
  checkpoint: 'text/plain; charset=utf-8',
};

/** What a file of unknown kind is served as. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

const BY_EXT = new Map(CONTENT_TYPES.map((e) => [e.ext, e.type]));

/** The content type of a site path (`objects/x/versions/1.0.0/representations/mesh.glb`), by its extension. */
export function contentTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const named = NAMED_CONTENT_TYPES[name];
  if (named) return named;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  return BY_EXT.get(name.slice(dot + 1).toLowerCase()) ?? DEFAULT_CONTENT_TYPE;
}

/** The entries nginx's stock `mime.types` lacks, as the lines of a `types { }` block: `model/gltf-binary glb;`. */
export function nginxExtraTypes(): string[] {
  const byType = new Map<string, string[]>();
  for (const e of CONTENT_TYPES.filter((c) => !c.nginxKnows)) {
    const type = e.type.split(';')[0]!.trim();
    byType.set(type, [...(byType.get(type) ?? []), e.ext]);
  }
  return [...byType].map(([type, exts]) => `${type} ${exts.join(' ')};`);
}

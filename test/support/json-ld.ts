/** Expands JSON-LD with the `jsonld` library offline and checks that every node is made of real IRIs. */
import jsonld from 'jsonld';

const SCHEMA = 'https://schema.org/';
const MEDIA_TYPES = new Set(['MediaObject', '3DModel', 'ImageObject'].map((t) => `${SCHEMA}${t}`));

/** Expands a document; any attempt to load a remote context fails the expansion (the site's context is inline). */
export async function expandOffline(doc: object): Promise<unknown[]> {
  const documentLoader = async (url: string): Promise<never> => {
    throw new Error(`tried to fetch ${url}: the JSON-LD must expand offline`);
  };
  // `safe` makes jsonld throw on any term or value it would drop or turn into a relative IRI.
  return (await jsonld.expand(doc as jsonld.JsonLdDocument, { documentLoader, safe: true } as jsonld.Options.Expand)) as unknown[];
}

/** Every problem of an expanded document: keys, `@id` and `@type` that are not absolute IRIs, `sha256` off a media object. */
export function iriProblems(expanded: unknown): string[] {
  const problems: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}/${i}`));
    if (typeof value !== 'object' || value === null) return;
    const node = value as Record<string, unknown>;
    for (const [key, v] of Object.entries(node)) {
      if (key.startsWith('@')) continue;
      if (!key.startsWith(SCHEMA)) problems.push(`${path}: property ${key} is not a schema.org IRI`);
      walk(v, `${path}/${key}`);
    }
    if ('@id' in node && (typeof node['@id'] !== 'string' || !/^https?:\/\/[^/\s]+\//.test(node['@id']))) problems.push(`${path}: @id ${JSON.stringify(node['@id'])} is not an absolute URL`);
    const types = ([] as unknown[]).concat(node['@type'] ?? []);
    for (const t of types) if (typeof t !== 'string' || !t.startsWith(SCHEMA)) problems.push(`${path}: @type ${JSON.stringify(t)} is not a schema.org IRI`);
    if (`${SCHEMA}sha256` in node && !types.some((t) => MEDIA_TYPES.has(t as string))) problems.push(`${path}: sha256 on ${JSON.stringify(types)}, not on a MediaObject`);
  };
  walk(expanded, '');
  return problems;
}

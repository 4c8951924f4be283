/** The server's resources: every version's manifest (`aso://objects/{id}/versions/{version}/manifest`) and the site's `llms.txt`. */
import { createHash } from 'node:crypto';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { IntegrityError } from '@aso-registry/sdk';
import type { RegistryContext } from './registry-context.ts';
import { fetchSiteBytes, fetchSiteText } from './site-fetch.ts';
import { manifestResourceUri } from './version-shapes.ts';

const LLMS_TXT_URI = 'aso://llms.txt';

/** One variable of a matched URI template (a list only for exploded variables, which these templates have none of). */
function variable(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

export function registerResources(server: McpServer, { client }: RegistryContext): void {
  const template = new ResourceTemplate(manifestResourceUri('{id}', '{version}'), {
    list: async () => ({
      resources: (await client.listObjects()).flatMap((o) =>
        o.versions.map((version) => ({ uri: manifestResourceUri(o.id, version), name: `${o.id}@${version}`, title: `${o.name} ${version}`, mimeType: 'application/json' })),
      ),
    }),
  });
  server.registerResource(
    'manifest',
    template,
    {
      title: 'Object version manifest',
      description: 'The exact bytes of a version\'s aso.object.json, served only after they hash to its record hash and the version is proven in the log.',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const doc = await client.getObject(variable(variables.id), variable(variables.version));
      const url = await client.resolveUrl(doc.manifestUrl);
      // The bytes handed out are checked again: the ones getObject verified were read by another request.
      const bytes = await fetchSiteBytes(url, 'application/json');
      const actual = `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
      if (actual !== doc.publication.recordHash) throw new IntegrityError(url, 'the manifest', { hash: doc.publication.recordHash }, { hash: actual, byteLength: bytes.byteLength });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) }] };
    },
  );
  server.registerResource(
    'llms.txt',
    LLMS_TXT_URI,
    { title: 'llms.txt of the registry', description: 'What the registry is and where its documents are, for language models.', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await fetchSiteText(`${client.origin}/llms.txt`) }] }),
  );
}

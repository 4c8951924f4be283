/** The text of `llms.txt`: what the registry is and where everything is. Pure. */
import { latestRecord } from '../format/latest.ts';
import type { VersionRecord } from './api-documents.ts';
import { agentPath, apiPaths, siteUrl, versionPagePath } from '../format/paths.ts';
import { mcpAccess } from './mcp-access.ts';

/** Markdown in the llms.txt format: a title, a summary, then sections of links. */
export function llmsTxt(registryUrl: string, objects: ReadonlyArray<{ id: string; latest: string; versions: VersionRecord[] }>): string {
  const url = (p: string) => siteUrl(registryUrl, p);
  const mcp = mcpAccess(registryUrl);
  const lines = [
    '# ASO registry',
    '',
    '> A static registry of immutable, versioned 3D objects (manifest schema aso/object/v0.1). Every object version has a manifest, an agent.json discovery document and raw representation files, each with a declared byte length and SHA-256 hash.',
    '',
    'Published versions never change: a change is published as a new version. To verify a file, fetch it, check that its length equals `byteLength` and that `sha256-` followed by the base64 of its SHA-256 digest equals `hash`. The manifest itself hashes to the `recordHash` of its publication record.',
    '',
    `An MCP server over this site gives agents tools that find, read and verify objects (${mcp.tools.join(', ')}): run \`${mcp.command}\` in a checkout of the registry's source (stdio; add \`--http --port <N>\` for Streamable HTTP on loopback).`,
    '',
    '## API',
    '',
    `- [API index](${url(apiPaths.index())}): where the JSON documents are`,
    `- [Catalog](${url(apiPaths.objects())}): every object with its versions and latest version`,
    `- [Worlds](${url(apiPaths.worlds())}): worlds and the exact versions they reference`,
    `- [Sitemap](${url('sitemap-index.xml')})`,
    '',
    '## Objects',
    '',
  ];
  for (const o of objects) {
    const m = latestRecord(o).manifest;
    lines.push(
      `- [${markdownLinkText(m.name)}](${url(versionPagePath(o.id, o.latest))}): ${o.id}@${o.latest}, ${o.versions.length} version(s); [agent.json](${url(agentPath(o.id, o.latest))}), [versions](${url(apiPaths.object(o.id))})`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `text` as the label of a Markdown link on one line: line breaks and other control characters become one space (a
 * name cannot start a section or a link of its own), and the characters Markdown reads in a label are escaped.
 */
export function markdownLinkText(text: string): string {
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/[\\[\]<>`*_]/g, '\\$&')
    .trim();
  return line || '(unnamed)';
}

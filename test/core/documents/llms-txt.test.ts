import { describe, expect, it } from 'vitest';
import { groupObjects } from '@aso-registry/core/documents/catalog';
import type { VersionRecord } from '@aso-registry/core/documents/api-documents';
import { llmsTxt, markdownLinkText } from '@aso-registry/core/documents/llms-txt';
import { record } from '../records.ts';

describe('llmsTxt', () => {
  const objects = groupObjects([
    record('chair', '1.0.0', { name: 'Oak chair' }),
    record('chair', '1.1.0', { name: 'Oak chair [v2]', createdAt: '2026-01-05T00:00:00Z' }),
    record('lamp', '0.1.0', { name: 'Lamp' }),
  ]);

  it('starts with a title and a summary, and ends with a newline', () => {
    const text = llmsTxt('https://registry.test', objects);
    expect(text.split('\n').slice(0, 3)).toEqual(['# ASO registry', '', expect.stringMatching(/^> A static registry of immutable, versioned 3D objects/)]);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
  });

  it('links the API documents on the registry URL, with or without a trailing slash', () => {
    for (const url of ['https://registry.test', 'https://registry.test/']) {
      const text = llmsTxt(url, objects);
      expect(text).toContain('- [API index](https://registry.test/api/v1/index.json)');
      expect(text).toContain('- [Catalog](https://registry.test/api/v1/objects.json)');
      expect(text).toContain('- [Worlds](https://registry.test/api/v1/worlds.json)');
      expect(text).toContain('- [Sitemap](https://registry.test/sitemap-index.xml)');
    }
  });

  it('lists each object once under its latest version, with its page, agent.json and versions', () => {
    const section = llmsTxt('https://registry.test', objects).split('## Objects\n\n')[1]!.trimEnd().split('\n');
    expect(section).toEqual([
      '- [Oak chair \\[v2\\]](https://registry.test/objects/chair/versions/1.1.0/): chair@1.1.0, 2 version(s); [agent.json](https://registry.test/objects/chair/versions/1.1.0/agent.json), [versions](https://registry.test/api/v1/objects/chair.json)',
      '- [Lamp](https://registry.test/objects/lamp/versions/0.1.0/): lamp@0.1.0, 1 version(s); [agent.json](https://registry.test/objects/lamp/versions/0.1.0/agent.json), [versions](https://registry.test/api/v1/objects/lamp.json)',
    ]);
  });

  it('says how an agent reaches the MCP server over this site, before the sections', () => {
    const text = llmsTxt('https://registry.test/', objects);
    const line = text.split('\n').find((l) => l.startsWith('An MCP server'));
    expect(line).toBe(
      'An MCP server over this site gives agents tools that find, read and verify objects (search_objects, get_object, list_versions, verify_object, compare_versions, get_world): ' +
        "run `npm run --silent mcp -- --site https://registry.test` in a checkout of the registry's source (stdio; add `--http --port <N>` for Streamable HTTP on loopback).",
    );
    expect(text.indexOf(line!)).toBeLessThan(text.indexOf('## API'));
  });

  it('percent-encodes build metadata in links', () => {
    const text = llmsTxt('https://registry.test', groupObjects([record('chair', '1.0.0+build.1')]));
    expect(text).toContain('(https://registry.test/objects/chair/versions/1.0.0+build.1/)');
    expect(text).toContain('chair@1.0.0+build.1, 1 version(s)');
  });

  it('has an empty objects section for an empty registry', () => {
    expect(llmsTxt('https://registry.test', []).endsWith('## Objects\n\n')).toBe(true);
  });
});

function object(name: string): { id: string; latest: string; versions: VersionRecord[] } {
  const manifest = { schema: 'aso/object/v0.1', id: 'thing', version: '1.0.0', name, description: '', tags: [], createdAt: '2026-01-01T00:00:00Z', provenance: {}, representations: [] };
  const publication = { publicationId: '00000000-0000-4000-8000-000000000000', publishedAt: '2026-01-01T00:00:00Z', publisher: 'p', recordHash: `sha256-${'A'.repeat(43)}=` };
  return { id: 'thing', latest: '1.0.0', versions: [{ manifest: manifest as VersionRecord['manifest'], publication }] };
}

describe('llmsTxt and names with line breaks', () => {
  it('cannot be given a section or a link by a name with line breaks', () => {
    const text = llmsTxt('https://registry.test', [object('Thing\n\n## Injected\n- [evil](https://evil.test)\u2028# also')]);
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('#'))).toEqual(['# ASO registry', '## API', '## Objects']);
    const entry = lines.filter((l) => l.startsWith('- ')).at(-1)!;
    expect(entry).toBe(
      '- [Thing ## Injected - \\[evil\\](https://evil.test) # also](https://registry.test/objects/thing/versions/1.0.0/): thing@1.0.0, 1 version(s); [agent.json](https://registry.test/objects/thing/versions/1.0.0/agent.json), [versions](https://registry.test/api/v1/objects/thing.json)',
    );
  });
});

describe('markdownLinkText', () => {
  it('escapes what Markdown reads in a label and names an empty one', () => {
    expect(markdownLinkText('a [b] \\ <i>`c`*_')).toBe('a \\[b\\] \\\\ \\<i\\>\\`c\\`\\*\\_');
    expect(markdownLinkText('\n\t ')).toBe('(unnamed)');
  });
});

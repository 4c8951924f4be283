/** llms.txt keeps every object on its own line, whatever its name holds. */
import { describe, expect, it } from 'vitest';
import type { VersionRecord } from '../../src/core/api-documents.ts';
import { llmsTxt, markdownLinkText } from '../../src/core/llms-txt.ts';

function object(name: string): { id: string; latest: string; versions: VersionRecord[] } {
  const manifest = { schema: 'aso/object/v0.1', id: 'thing', version: '1.0.0', name, description: '', tags: [], createdAt: '2026-01-01T00:00:00Z', provenance: {}, representations: [] };
  const publication = { publicationId: '00000000-0000-4000-8000-000000000000', publishedAt: '2026-01-01T00:00:00Z', publisher: 'p', recordHash: `sha256-${'A'.repeat(43)}=` };
  return { id: 'thing', latest: '1.0.0', versions: [{ manifest: manifest as VersionRecord['manifest'], publication }] };
}

describe('llmsTxt', () => {
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

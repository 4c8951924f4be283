import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordSnippets, shellWord } from '@aso-registry/core/documents/record-snippets';
import { digestOf } from '../records.ts';

const input = {
  id: 'oak-chair',
  version: '1.1.0',
  registryUrl: 'https://registry.example.org',
  manifestUrl: 'https://registry.example.org/objects/oak-chair/versions/1.1.0/aso.object.json',
};

describe('recordSnippets', () => {
  it('writes the SDK call with getObject(id, version), and the manifest URL', () => {
    const [sdk, manifest, ...rest] = recordSnippets(input);
    expect(sdk!.text).toBe(
      "import { createClient } from '@aso-registry/sdk';\nconst { getObject } = createClient({ origin: 'https://registry.example.org' });\nconst object = await getObject('oak-chair', '1.1.0');",
    );
    expect(manifest).toEqual({ key: 'manifest', label: 'Manifest URL', text: input.manifestUrl });
    expect(rest).toEqual([]);
  });

  it('writes a download checked with sha256sum, which passes for the right bytes and fails for others', () => {
    const work = mkdtempSync(join(tmpdir(), 'aso-snippet-'));
    try {
      const name = "it's mesh.glb";
      const file = { url: 'https://registry.example.org/x/mesh.glb', name, sha256: digestOf('the bytes').hex };
      const verify = recordSnippets({ ...input, file }).find((s) => s.key === 'verify')!;
      expect(verify.text).toBe(`curl -fsSL -o 'it'\\''s mesh.glb' https://registry.example.org/x/mesh.glb\necho '${file.sha256}  it'\\''s mesh.glb' | sha256sum -c -`);
      // The check line alone, run by a shell on a file in place of the download.
      const check = verify.text.split('\n')[1]!;
      writeFileSync(join(work, name), 'the bytes');
      expect(execFileSync('sh', ['-c', check], { cwd: work, encoding: 'utf8' })).toContain(': OK');
      writeFileSync(join(work, name), 'other bytes');
      expect(() => execFileSync('sh', ['-c', check], { cwd: work, stdio: 'pipe' })).toThrow();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('shellWord', () => {
  it('quotes what a shell would read otherwise', () => {
    expect(shellWord('mesh.glb')).toBe('mesh.glb');
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord('$(rm -rf x)')).toBe("'$(rm -rf x)'");
    expect(shellWord('-o')).toBe("'-o'");
  });
});

/** Proof verification against every inclusion and consistency probe of transparency-dev/merkle. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consistencyProblem, inclusionProblem } from '@aso-registry/core/log/merkle-proof';

const VECTORS = join(import.meta.dirname, '..', '..', 'fixtures', 'tdev-merkle');

function probes(kind: string): Array<{ file: string; v: Record<string, unknown> }> {
  const out: Array<{ file: string; v: Record<string, unknown> }> = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) out.push({ file: path.slice(VECTORS.length + 1), v: JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> });
    }
  };
  walk(join(VECTORS, kind));
  return out;
}

const bytes = (b64: unknown): Uint8Array => new Uint8Array(Buffer.from((b64 as string | null) ?? '', 'base64'));
const list = (proof: unknown): Uint8Array[] => ((proof as string[] | null) ?? []).map(bytes);

describe('inclusion probes', () => {
  const all = probes('inclusion');
  it('reads them all', () => expect(all.length).toBeGreaterThan(60));
  it.each(all)('$file', ({ v }) => {
    const problem = inclusionProblem(v.leafIdx as number, v.treeSize as number, bytes(v.leafHash), list(v.proof), bytes(v.root));
    if (v.wantErr) expect(problem).toEqual(expect.any(String));
    else expect(problem).toBeNull();
  });
});

describe('consistency probes', () => {
  const all = probes('consistency');
  it('reads them all', () => expect(all.length).toBeGreaterThan(60));
  it.each(all)('$file', ({ v }) => {
    const problem = consistencyProblem(v.size1 as number, v.size2 as number, bytes(v.root1), bytes(v.root2), list(v.proof));
    if (v.wantErr) expect(problem).toEqual(expect.any(String));
    else expect(problem).toBeNull();
  });
});

describe('what the refusals say', () => {
  it('names a rollback and a rewrite', () => {
    const root = new Uint8Array(32);
    expect(consistencyProblem(8, 6, root, root, [])).toMatch(/shrank from 8 leaves to 6: it was rolled back/);
    expect(consistencyProblem(3, 3, root, new Uint8Array(32).fill(1), [])).toMatch(/different roots: the log was rewritten/);
  });
});

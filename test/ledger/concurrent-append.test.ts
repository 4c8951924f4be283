/**
 * Two processes appending to `registry/ledger.jsonl` at once: the lock makes them take turns, so every line is there,
 * whole, in one valid chain. And a last line cut short by a crash is named and explained by the check.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TORN_LINE, verifyLedger } from '@aso-registry/core/log/ledger';
import { checkRegistry } from '../../src/registry/load-registry.ts';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';
import { repoRoot } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

const PER_PROCESS = 15;
let parent: string;
let root: string;

beforeAll(async () => {
  ({ parent, root } = await tempRegistry('aso-ledger-race-'));
  const bytes = await pngBytes(4, 4);
  for (const who of ['a', 'b']) {
    for (let i = 0; i < PER_PROCESS; i++) {
      await writeVersion(root, { id: `object-${who}`, version: `1.0.${i}`, files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes }] });
    }
  }
  await writeFile(join(root, 'ledger.jsonl'), '');
});

afterAll(() => rm(parent, { recursive: true, force: true }));

/** `npx tsx scripts/ledger.ts append ...` in its own process. */
function append(versions: string[]): Promise<{ code: number; stderr: string }> {
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [join(repoRoot, 'scripts', 'ledger.ts'), 'append', ...versions, '--registry', root], { cwd: parent });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

it('keeps every line of two processes appending at once, in one valid chain', async () => {
  const versions = (who: string): string[] => Array.from({ length: PER_PROCESS }, (_, i) => `object-${who}@1.0.${i}`);
  const [a, b] = await Promise.all([append(versions('a')), append(versions('b'))]);
  expect(a, a.stderr).toMatchObject({ code: 0 });
  expect(b, b.stderr).toMatchObject({ code: 0 });
  const text = await readFile(join(root, 'ledger.jsonl'), 'utf8');
  const { entries, problems } = await verifyLedger(text);
  expect(problems).toEqual([]);
  expect(entries.map((e) => `${e.id}@${e.version}`).sort()).toEqual([...versions('a'), ...versions('b')].sort());
  // The lock is gone once both are done.
  expect(await readdir(root)).not.toContain('ledger.jsonl.lock');
  expect((await checkRegistry(root, { registryUrl: DEFAULT_REGISTRY_URL, validateGltf: false })).problems).toEqual([]);
}, 120_000);

it('names a last line cut short by a crash and says what to do', async () => {
  const path = join(root, 'ledger.jsonl');
  const whole = await readFile(path, 'utf8');
  const lines = whole.trimEnd().split('\n');
  const torn = `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 40)}`;
  await writeFile(path, torn);
  const { problems } = await checkRegistry(root, { registryUrl: DEFAULT_REGISTRY_URL, validateGltf: false });
  expect(problems[0]).toBe(`registry/ledger.jsonl: line ${lines.length}: ${TORN_LINE}`);
  expect(TORN_LINE).toContain('an append was interrupted');
  await writeFile(path, whole);
});

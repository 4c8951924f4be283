/**
 * A glTF asset too deep for gltf-validator (whose recursion overflows the stack outside any try, killing the process)
 * is a problem line naming the file: on the calling thread, on a validation thread, in check and in the check CLI.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_GLTF_JSON_DEPTH, MAX_GLTF_NODE_DEPTH } from '@aso-registry/core/format/gltf-depth';
import { hashSmallFileWhole } from '../../src/io/hash-file.ts';
import { startGltfValidation } from '../../src/registry/gltf-validation-threads.ts';
import { checkRegistry } from '../../src/registry/load-registry.ts';
import { validateGltfBytes } from '../../src/registry/validate-gltf.ts';
import { repoRoot } from '../support/build-site.ts';
import { createFixture, REGISTRY_URL, type Fixture, type FileSpec } from './fixture.ts';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A glTF whose `extras` nests `levels` arrays (the document itself is one level more). */
const PREFIX = '{"asset":{"version":"2.0"},"extras":';
const nestedGltf = (levels: number): string => `${PREFIX}${'['.repeat(levels)}${']'.repeat(levels)}}`;

/** A glTF whose nodes form one chain, each the only child of the one before. */
const chainGltf = (nodes: number): string =>
  JSON.stringify({
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: Array.from({ length: nodes }, (_, i) => (i + 1 < nodes ? { children: [i + 1] } : {})),
  });

/** A GLB holding `json` as its only chunk, padded with spaces as the format asks. */
function glb(json: string): Uint8Array {
  const body = Buffer.from(json.padEnd(Math.ceil(json.length / 4) * 4, ' '));
  const out = Buffer.alloc(20 + body.length);
  out.writeUInt32LE(0x46546c67, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(out.length, 8);
  out.writeUInt32LE(body.length, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  body.copy(out, 20);
  return new Uint8Array(out);
}

const FIRST_TOO_DEEP = PREFIX.length + MAX_GLTF_JSON_DEPTH - 1;
const tooDeep = (at: number): string => `nests JSON objects and arrays deeper than 128 levels (at byte ${at}); a glTF asset needs far fewer, and such nesting overflows the validator's stack`;
const chainTooDeep = "is more than 1,000 levels deep in the node hierarchy; at most 1,000 are allowed, since a deeper one overflows the validator's stack";

describe('a glTF too deep for gltf-validator', () => {
  it('is a finding, for JSON nested 100,000 levels deep in a .gltf and in a GLB', async () => {
    expect((await validateGltfBytes(encode(nestedGltf(100_000)), { format: 'gltf' })).findings).toEqual([{ message: tooDeep(FIRST_TOO_DEEP) }]);
    expect((await validateGltfBytes(glb(nestedGltf(100_000)), { format: 'glb' })).findings).toEqual([{ message: tooDeep(20 + FIRST_TOO_DEEP) }]);
  });

  it('passes JSON nested exactly as deep as the bound, brackets in strings not counted', async () => {
    const atBound = await validateGltfBytes(encode(nestedGltf(MAX_GLTF_JSON_DEPTH - 1)), { format: 'gltf' });
    expect(atBound.findings).toEqual([]);
    const inStrings = `{"asset":{"version":"2.0"},"extras":{"a":"${'[{'.repeat(1000)}\\"[["}}`;
    expect((await validateGltfBytes(encode(inStrings), { format: 'gltf' })).findings).toEqual([]);
    expect((await validateGltfBytes(glb(nestedGltf(MAX_GLTF_JSON_DEPTH)), { format: 'glb' })).findings).toEqual([{ message: tooDeep(20 + PREFIX.length + MAX_GLTF_JSON_DEPTH - 1) }]);
  });

  it('is a finding for a chain of 100,000 nodes, naming the first node past the bound; a chain at the bound passes', async () => {
    expect((await validateGltfBytes(encode(chainGltf(100_000)), { format: 'gltf' })).findings).toEqual([{ pointer: '/nodes/1000', message: chainTooDeep }]);
    expect((await validateGltfBytes(glb(chainGltf(100_000)), { format: 'glb' })).findings).toEqual([{ pointer: '/nodes/1000', message: chainTooDeep }]);
    const atBound = await validateGltfBytes(encode(chainGltf(MAX_GLTF_NODE_DEPTH)), { format: 'gltf' });
    expect(atBound.findings).toEqual([]);
    expect(atBound.inventory).toBeDefined();
  });

  it('refuses a node with two parents among more nodes than the bound, and a cycle deeper than it', async () => {
    const nodes: Array<{ children?: number[] }> = Array.from({ length: MAX_GLTF_NODE_DEPTH + 5 }, () => ({}));
    nodes[1] = { children: [3] };
    nodes[2] = { children: [3] };
    const twoParents = JSON.stringify({ asset: { version: '2.0' }, nodes });
    expect((await validateGltfBytes(encode(twoParents), { format: 'gltf' })).findings).toEqual([
      { pointer: '/nodes/2/children', message: 'makes node 3 a child of node 2 as well as of node 1; a glTF node has at most one parent' },
    ]);
    // A ring of 1,001 nodes, walked from node 5: 1,001 levels before the walk meets a node it has seen.
    const ring = JSON.parse(chainGltf(MAX_GLTF_NODE_DEPTH + 1)) as { scenes: Array<{ nodes: number[] }>; nodes: Array<{ children?: number[] }> };
    ring.nodes[MAX_GLTF_NODE_DEPTH] = { children: [0] };
    ring.scenes = [{ nodes: [5] }];
    const findings = (await validateGltfBytes(encode(JSON.stringify(ring)), { format: 'gltf' })).findings;
    expect(findings.map((f) => f.message)).toEqual([chainTooDeep]);
  });

  it('is a finding on a validation thread, which stays up for the next file', async () => {
    const validation = startGltfValidation({ threads: 1, after: 0 });
    try {
      const fx = await createFixture();
      try {
        const deep = join(fx.repo, 'deep.gltf');
        const chain = join(fx.repo, 'chain.glb');
        await writeFile(deep, nestedGltf(100_000));
        await writeFile(chain, glb(chainGltf(100_000)));
        expect((await validation.validate(deep, 'gltf', await hashSmallFileWhole(deep))).findings).toEqual([{ message: tooDeep(FIRST_TOO_DEEP) }]);
        expect((await validation.validate(chain, 'glb', await hashSmallFileWhole(chain))).findings).toEqual([{ pointer: '/nodes/1000', message: chainTooDeep }]);
        expect(validation.onThreads().files).toBe(2);
      } finally {
        await fx.cleanup();
      }
    } finally {
      await validation.close();
    }
  });
});

describe('check with a glTF too deep for gltf-validator', () => {
  let fx: Fixture;
  const V = 'registry/objects/deep/versions/1.0.0/representations';
  const lines = [
    `${V}/chain.glb: /nodes/1000: ${chainTooDeep}`,
    `${V}/nested.gltf: file: ${tooDeep(FIRST_TOO_DEEP)}`,
    `${V}/nested-chunk.glb: file: ${tooDeep(20 + FIRST_TOO_DEEP)}`,
  ].sort();

  beforeAll(async () => {
    fx = await createFixture();
    const mesh = (id: string, format: 'gltf' | 'glb', bytes: Uint8Array): FileSpec => ({ id, type: 'mesh', format, mediaType: format === 'glb' ? 'model/gltf-binary' : 'model/gltf+json', bytes });
    await fx.addVersion({
      id: 'deep',
      version: '1.0.0',
      files: [mesh('nested', 'gltf', encode(nestedGltf(100_000))), mesh('nested-chunk', 'glb', glb(nestedGltf(100_000))), mesh('chain', 'glb', glb(chainGltf(100_000)))],
    });
  });
  afterAll(() => fx.cleanup());

  it('names each file in a problem line, on the calling thread and on validation threads', async () => {
    for (const gltfThreads of [{ threads: 0 }, { threads: 1, after: 0 }]) {
      const result = await checkRegistry(fx.root, { registryUrl: REGISTRY_URL, gltfThreads });
      expect(result.ok).toBe(false);
      expect([...result.problems].sort()).toEqual(lines);
    }
  });

  it('prints the problem lines and exits 1 from the check CLI, without a crash', async () => {
    const tsx = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const run = promisify(execFile);
    const out = await run(process.execPath, [tsx, join(repoRoot, 'scripts', 'check.ts')], {
      cwd: fx.repo,
      env: { ...process.env, ASO_REGISTRY_DIR: '', REGISTRY_URL },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
    expect(out.stderr.split('\n').filter(Boolean).sort()).toEqual(lines);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
  });
});

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputWriter } from '../../../src/site/output/output-writer.ts';
import { copyDecoders, decoderFiles, decoderLocations } from '../../../src/site/build/decoders.ts';

describe('the decoders the site serves', () => {
  let dir: string | undefined;
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it('come from the installed three and meshoptimizer, in folders named after their versions', async () => {
    const three = JSON.parse(await readFile(join('node_modules', 'three', 'package.json'), 'utf8')).version;
    const meshopt = JSON.parse(await readFile(join('node_modules', 'meshoptimizer', 'package.json'), 'utf8')).version;
    expect(decoderLocations('/')).toEqual({
      draco: `/decoders/three-${three}/draco/`,
      ktx2: `/decoders/three-${three}/basis/`,
      meshopt: `/decoders/meshoptimizer-${meshopt}/meshopt_decoder.js`,
    });
    expect(decoderLocations('/sub').draco).toBe(`/sub/decoders/three-${three}/draco/`);
    expect(decoderFiles().map((f) => f.to)).toEqual([
      `decoders/three-${three}/draco/draco_wasm_wrapper.js`,
      `decoders/three-${three}/draco/draco_decoder.wasm`,
      `decoders/three-${three}/basis/basis_transcoder.js`,
      `decoders/three-${three}/basis/basis_transcoder.wasm`,
      `decoders/meshoptimizer-${meshopt}/meshopt_decoder.js`,
    ]);
  });

  it('are copied byte for byte, and a second copy leaves them alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-decoders-'));
    const writer = new OutputWriter(dir);
    await copyDecoders(writer);
    expect(writer.paths.size).toBe(decoderFiles().length);
    for (const f of decoderFiles()) {
      const to = join(dir, ...f.to.split('/'));
      expect(writer.paths.has(f.to)).toBe(true);
      expect((await readFile(to)).equals(await readFile(f.from)), f.to).toBe(true);
    }
    const first = await stat(join(dir, decoderFiles()[1]!.to));
    await copyDecoders(new OutputWriter(dir));
    expect((await stat(join(dir, decoderFiles()[1]!.to))).ctimeMs).toBe(first.ctimeMs);
  });
});

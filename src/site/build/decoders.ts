/**
 * The decoders `<model-viewer>` loads on demand, copied from the npm packages the lock file pins into the built site, so
 * that a record page never asks another origin for code: Draco and Basis/KTX2 from three (the version model-viewer is
 * built with), the meshopt decoder script from meshoptimizer. Their folders carry the package version, so a cached copy
 * is never stale.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DECODERS_DIR, type DecoderLocations } from '@aso-registry/core/documents/decoders';
import type { OutputWriter } from '../output/output-writer.ts';

/** One decoder file: where it is in node_modules and its path in the site. */
export interface DecoderFile {
  from: string;
  /** Relative to the site root, `/`-separated. */
  to: string;
}

const require = createRequire(import.meta.url);

/** The folder and version of an installed package, found from its entry point (three does not export its package.json). */
function installed(name: string): { root: string; version: string } {
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return { root: dir, version: pkg.version };
    } catch {
      // no package.json here: go up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package.json of ${name}`);
    dir = up;
  }
}

let found: { three: string; meshopt: string; threeRoot: string; meshoptRoot: string } | undefined;

/** The site folders of the decoders, without the base path (read once: every record page asks). */
function folders(): { three: string; meshopt: string; threeRoot: string; meshoptRoot: string } {
  if (found) return found;
  const three = installed('three');
  const meshopt = installed('meshoptimizer');
  found = {
    three: `${DECODERS_DIR}/three-${three.version}`,
    meshopt: `${DECODERS_DIR}/meshoptimizer-${meshopt.version}`,
    threeRoot: three.root,
    meshoptRoot: meshopt.root,
  };
  return found;
}

/** Every decoder file the site serves. */
export function decoderFiles(): DecoderFile[] {
  const f = folders();
  const libs = join(f.threeRoot, 'examples', 'jsm', 'libs');
  return [
    // The glTF build of Draco: the decoder three's DRACOLoader loads for KHR_draco_mesh_compression (WebAssembly).
    { from: join(libs, 'draco', 'gltf', 'draco_wasm_wrapper.js'), to: `${f.three}/draco/draco_wasm_wrapper.js` },
    { from: join(libs, 'draco', 'gltf', 'draco_decoder.wasm'), to: `${f.three}/draco/draco_decoder.wasm` },
    { from: join(libs, 'basis', 'basis_transcoder.js'), to: `${f.three}/basis/basis_transcoder.js` },
    { from: join(libs, 'basis', 'basis_transcoder.wasm'), to: `${f.three}/basis/basis_transcoder.wasm` },
    // model-viewer loads this as a classic script before it hands meshopt buffers to its decoder.
    { from: join(f.meshoptRoot, 'meshopt_decoder.cjs'), to: `${f.meshopt}/meshopt_decoder.js` },
  ];
}

/** The locations the viewer hands to `<model-viewer>`, under the site's base path (`/` or `/sub/`). */
export function decoderLocations(base: string): DecoderLocations {
  const f = folders();
  const root = base.endsWith('/') ? base : `${base}/`;
  return { draco: `${root}${f.three}/draco/`, ktx2: `${root}${f.three}/basis/`, meshopt: `${root}${f.meshopt}/meshopt_decoder.js` };
}

/** Copies every decoder file into the site (unless an identical copy is there). */
export async function copyDecoders(writer: OutputWriter): Promise<void> {
  await Promise.all(decoderFiles().map((file) => writer.copy(file.from, file.to)));
}

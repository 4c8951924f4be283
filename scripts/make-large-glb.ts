/**
 * `npx tsx scripts/make-large-glb.ts --mb 200 --out <dir>`: writes `<dir>/registry/` with one version whose mesh is a
 * valid GLB of about that many MB (and its ledger), for measuring `npm run check` and `npm run build` on a big file.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { largeGlb, writeLargeVersion } from '../src/bench/large-glb.ts';
import { registryUrl } from '../src/registry/registry-url.ts';

const USAGE = 'usage: npx tsx scripts/make-large-glb.ts --mb <size in MB> --out <folder>';

const { values } = parseArgs({ options: { mb: { type: 'string' }, out: { type: 'string' } }, strict: true });
const mb = Number(values.mb);
if (!values.out || !Number.isFinite(mb) || mb <= 0) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const root = join(resolve(values.out), 'registry');
await mkdir(root, { recursive: true });
const glb = await largeGlb(mb * 1e6);
await writeLargeVersion(root, glb, registryUrl());
process.stdout.write(`${root}: large-terrain@1.0.0, mesh.glb ${glb.byteLength.toLocaleString('en-US')} bytes\n`);

#!/usr/bin/env node
// `npm run build`: the build (scripts/build-site.ts, bundled into plain JavaScript once per version of the code by
// scripts/build-bundle.mjs) in a child process whose heap is bounded (scripts/build-heap.mjs). Plain JavaScript, so
// that it starts without a TypeScript loader and weighs almost nothing beside the build.
//
// A build that fails after it began writing the output folder leaves a marker there (src/site/output/stale-output.ts,
// INCOMPLETE_MARKER); the folder is then removed here, a top-level .git (a deploy checkout) excepted, so that no deploy
// step publishes half a site. A build that fails earlier (a registry problem) has not touched the folder.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildBundle } from './build-bundle.mjs';
import { buildHeapMb } from './build-heap.mjs';

const INCOMPLETE_MARKER = '.build-incomplete';

let heapMb;
try {
  heapMb = buildHeapMb();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
const args = process.argv.slice(2);
const { values } = parseArgs({ args, options: { root: { type: 'string' }, outDir: { type: 'string' } }, strict: true });
const root = resolve(typeof values.root === 'string' ? values.root : '.');
const outDir = resolve(root, typeof values.outDir === 'string' ? values.outDir : 'dist');

const project = join(dirname(fileURLToPath(import.meta.url)), '..');
let entry;
try {
  entry = await buildBundle(project);
} catch (error) {
  process.stderr.write(`build failed: the build's code could not be bundled: ${error.message}\n`);
  process.exit(1);
}
const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, '--enable-source-maps', entry, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (code === 134 || signal === 'SIGABRT') {
    process.stderr.write(`the build ran out of its ${heapMb} MiB heap; a larger registry needs more: ASO_BUILD_HEAP_MB=${heapMb * 2} npm run build\n`);
  }
  if (code !== 0 && existsSync(join(outDir, INCOMPLETE_MARKER))) {
    for (const name of readdirSync(outDir)) if (name !== '.git') rmSync(join(outDir, name), { recursive: true, force: true });
    process.stderr.write(`the build failed while writing ${outDir}; removed the partial site there so that it cannot be deployed (the next build writes it whole)\n`);
  }
  process.exit(code ?? 1);
});

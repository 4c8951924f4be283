/** The compiler flags `npm run build` gives the build. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMPILER_FLAGS, INLINED_BYTECODE_CUMULATIVE } from '../../scripts/build-compiler.mjs';

describe('COMPILER_FLAGS', () => {
  it('sets the cumulative inlining budget below V8\'s own', () => {
    expect(COMPILER_FLAGS).toEqual([`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_CUMULATIVE}`]);
    const defaults = spawnSync(process.execPath, ['--v8-options']).stdout.toString();
    const own = /--max-inlined-bytecode-size-cumulative=(\d+)/.exec(defaults.slice(defaults.indexOf('--max-inlined-bytecode-size-cumulative ')));
    expect(Number(own?.[1])).toBeGreaterThan(INLINED_BYTECODE_CUMULATIVE);
  });

  it('are flags this Node takes', () => {
    const run = spawnSync(process.execPath, [...COMPILER_FLAGS, '-e', 'process.stdout.write("ran")']);
    expect(run.stderr.toString()).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.toString()).toBe('ran');
  });
});

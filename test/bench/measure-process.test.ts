import { describe, expect, it } from 'vitest';
import { machineCpuTicks, measureProcess, stealBetween } from '../../src/bench/measure-process.ts';

const MiB = 1024 * 1024;
/** A Node script that holds `mb` MiB of touched memory for a moment. */
const hold = (mb: number) => `const b = Buffer.alloc(${mb} * 1024 * 1024, 1); setTimeout(() => console.log(b.length), 600);`;

describe('measureProcess', () => {
  it('returns the exit code and output of the command', async () => {
    const run = await measureProcess(process.execPath, ['-e', 'console.log("out"); console.error("err"); process.exit(3)'], { cwd: process.cwd(), env: process.env });
    expect(run).toMatchObject({ code: 3, stdout: 'out\n', stderr: 'err\n' });
    expect(run.ms).toBeGreaterThan(0);
  });

  it.runIf(process.platform === 'linux')('sees the peak memory of the process and of the children it starts', async () => {
    const alone = await measureProcess(process.execPath, ['-e', hold(150)], { cwd: process.cwd(), env: process.env, sampleMs: 20 });
    expect(alone.peakRssBytes).toBeGreaterThan(150 * MiB);
    const parent = `const { spawnSync } = require('node:child_process'); spawnSync(process.execPath, ['-e', ${JSON.stringify(hold(150))}], { stdio: 'inherit' });`;
    const tree = await measureProcess(process.execPath, ['-e', parent], { cwd: process.cwd(), env: process.env, sampleMs: 20 });
    expect(tree.code).toBe(0);
    expect(tree.stdout.trim()).toBe(String(150 * MiB));
    expect(tree.peakRssBytes).toBeGreaterThan(150 * MiB);
  });

  it.runIf(process.platform === 'linux')('keeps a spike that comes and goes between two samples', async () => {
    // 150 MiB touched and freed at once, then a quiet wait: the samples only see the high-water mark the kernel keeps.
    const spike = 'let b = Buffer.alloc(150 * 1024 * 1024, 1); b = null; globalThis.gc(); setTimeout(() => {}, 1500);';
    const run = await measureProcess(process.execPath, ['--expose-gc', '-e', spike], { cwd: process.cwd(), env: process.env, sampleMs: 500 });
    expect(run.peakRssBytes).toBeGreaterThan(150 * MiB);
  });

  it.runIf(process.platform === 'linux')('says what share of the machine’s CPU time was stolen during the run', async () => {
    const busy = 'const end = Date.now() + 300; while (Date.now() < end);';
    const run = await measureProcess(process.execPath, ['-e', busy], { cwd: process.cwd(), env: process.env });
    expect(run.steal).toBeGreaterThanOrEqual(0);
    expect(run.steal).toBeLessThan(1);
    const before = machineCpuTicks();
    const end = Date.now() + 200;
    while (Date.now() < end);
    const after = machineCpuTicks();
    // 200 ms of one core's work is at least a few ticks (100 a second) more of the machine's time.
    expect(after!.total - before!.total).toBeGreaterThanOrEqual(10);
    expect(after!.steal).toBeGreaterThanOrEqual(before!.steal);
  });

  it('divides the stolen ticks by all the ticks between two readings', () => {
    expect(stealBetween({ total: 1000, steal: 10 }, { total: 1400, steal: 50 })).toBe(0.1);
    expect(stealBetween({ total: 1000, steal: 10 }, { total: 1000, steal: 10 })).toBeNull();
    expect(stealBetween(null, { total: 1000, steal: 10 })).toBeNull();
  });

  it('rejects when the command cannot be started', async () => {
    await expect(measureProcess('/no/such/command', [], { cwd: process.cwd(), env: process.env })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

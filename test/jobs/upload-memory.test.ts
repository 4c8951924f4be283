/**
 * Ten uploads of the largest image the service accepts, at once, against the real `npm run jobs -- serve` process: its
 * resident memory, read from /proc while they run, stays near where it was, since each upload goes to disk as it arrives.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runJobsCli } from '../../src/jobs/service/cli.ts';
import { DEFAULT_LIMITS } from '../../src/jobs/service/options.ts';
import { paddedPng, postUpload, tempDir, waitForJob } from './helpers.ts';
import { startJobsProcess } from './processes.ts';

/** How far above its resident memory before the uploads the service may go while it reads them (buffered whole, ten add 450 MB or more). */
const BOUND_MB = 200;

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return kb / 1024;
}

describe.runIf(process.platform === 'linux')('ten concurrent uploads of the largest accepted size', () => {
  it('keep the service’s resident memory flat', async () => {
    const dir = await tempDir();
    const keys: string[] = [];
    for (let i = 0; i < 10; i++) {
      const out: string[] = [];
      await runJobsCli(['keys', 'create', '--name', `publisher-${i}`, '--data', dir.path], { out: (l) => out.push(l), err: () => {} });
      keys.push(out.at(-1)!);
    }
    const proc = await startJobsProcess(['--port', '0', '--data', dir.path, '--concurrency', '1']);
    const pid = proc.child.pid!;
    let sampler: NodeJS.Timeout | undefined;
    try {
      // Just under the limit, with room for nothing else: the most one upload may carry.
      const image = await paddedPng(DEFAULT_LIMITS.maxImageBytes - 1024);
      // One upload and its job first, so that what loads once (image decoders, the model thread) is in the baseline.
      const warm = await postUpload(proc.url, keys[0]!, 'card', image);
      expect(warm.status).toBe(202);
      expect((await waitForJob(proc.url, keys[0]!, ((await warm.json()) as { id: string }).id)).status).toBe('succeeded');
      const before = await residentMb(pid);

      let peak = before;
      sampler = setInterval(() => {
        residentMb(pid).then((mb) => (peak = Math.max(peak, mb)), () => {});
      }, 20);
      const responses = await Promise.all(keys.map((key) => postUpload(proc.url, key, 'card', image)));
      clearInterval(sampler);
      peak = Math.max(peak, await residentMb(pid));
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(202));
      expect(peak - before, `resident memory went from ${before.toFixed(0)} MB to ${peak.toFixed(0)} MB`).toBeLessThan(BOUND_MB);
      // What was streamed to disk is each job's whole input.
      const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { id: string }).id));
      for (const [i, id] of ids.entries()) expect((await waitForJob(proc.url, keys[i]!, id)).status).toBe('succeeded');
    } finally {
      clearInterval(sampler);
      await proc.stop();
      await dir.remove();
    }
  });
});

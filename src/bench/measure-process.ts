/** Runs a child process and measures its wall time and the peak resident memory of its process tree. */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** What a measured run returns. */
export interface ProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time in milliseconds. */
  ms: number;
  /** Peak resident set size of the process tree in bytes, or null where `/proc` is not available (not Linux). */
  peakRssBytes: number | null;
  /**
   * The share (0-1) of the machine's CPU time that its hypervisor gave to other guests during the run ("steal" in
   * `/proc/stat`), or null where `/proc` is not available: a run on a machine whose neighbours were busy is slower
   * for it, and this says by how much the machine was short.
   */
  steal: number | null;
}

/** The machine's CPU time so far, all cores, in clock ticks: the total and the part stolen (`/proc/stat`). */
export function machineCpuTicks(): { total: number; steal: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    // cpu user nice system idle iowait irq softirq steal [guest guest_nice: already counted in user and nice]
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (line.split(/\s+/)[0] !== 'cpu' || ticks.length < 8 || ticks.some((n) => !Number.isFinite(n))) return null;
    return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7]! };
  } catch {
    return null;
  }
}

/** The stolen share of the CPU time between two readings of {@link machineCpuTicks}, or null without both. */
export function stealBetween(before: { total: number; steal: number } | null, after: { total: number; steal: number } | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (after.steal - before.steal) / (after.total - before.total);
}

/** `VmRSS` and `VmHWM` (peak) of a process in bytes, or null once it has gone. */
function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** The pids of `root` and all its descendants, read from `/proc/<pid>/stat`. */
function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return [root];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat = '';
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // The command name (field 2) may hold spaces; the parent pid is the second field after its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isFinite(ppid)) continue;
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

/** Samples between two listings of the process tree (its processes' memory is read at every sample). */
const TREE_EVERY = 10;

/** Spawns `command args` and samples the tree's memory every `sampleMs` until it exits. */
export function measureProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; sampleMs?: number },
): Promise<ProcessRun> {
  const started = performance.now();
  const ticks = machineCpuTicks();
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const linux = process.platform === 'linux';
  let peak = 0;
  const hwm = new Map<number, number>();
  // Synchronous, and the process tree listed again only every tenth sample: the sampler shares the machine with what
  // it measures, so it reads as little as it can, without a promise per file.
  let tree: number[] = [];
  let samples = 0;
  const sample = (): void => {
    if (!child.pid) return;
    if (samples++ % TREE_EVERY === 0) tree = processTree(child.pid);
    let sum = 0;
    for (const pid of tree) {
      const m = memoryOf(pid);
      if (!m) continue;
      sum += m.rss;
      hwm.set(pid, Math.max(hwm.get(pid) ?? 0, m.hwm));
    }
    peak = Math.max(peak, sum);
  };
  const timer = linux ? setInterval(sample, opts.sampleMs ?? 100) : undefined;
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on('close', (code) => {
      const ms = performance.now() - started;
      clearInterval(timer);
      // The sampled sum can miss a short spike between samples; each process's own high-water mark cannot.
      const single = Math.max(0, ...hwm.values());
      resolve({ code: code ?? 1, stdout, stderr, ms, peakRssBytes: linux ? Math.max(peak, single) : null, steal: stealBetween(ticks, machineCpuTicks()) });
    });
  });
}

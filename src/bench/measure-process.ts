/** Runs a child process and measures its wall time and the peak resident memory of its process tree. */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/** What a measured run returns. */
export interface ProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time in milliseconds. */
  ms: number;
  /** Peak resident set size of the process tree in bytes, or null where `/proc` is not available (not Linux). */
  peakRssBytes: number | null;
}

/** `VmRSS` and `VmHWM` (peak) of a process in bytes, or null once it has gone. */
async function memoryOf(pid: number): Promise<{ rss: number; hwm: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** The pids of `root` and all its descendants, read from `/proc/<pid>/stat`. */
async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // The command name (field 2) may hold spaces; the parent pid is the second field after its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isFinite(ppid)) continue;
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

/** Spawns `command args` and samples the tree's memory every `sampleMs` until it exits. */
export function measureProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; sampleMs?: number },
): Promise<ProcessRun> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const linux = process.platform === 'linux';
  let peak = 0;
  const hwm = new Map<number, number>();
  let sampling: Promise<void> = Promise.resolve();
  const sample = async (): Promise<void> => {
    if (!child.pid) return;
    let sum = 0;
    for (const pid of await processTree(child.pid)) {
      const m = await memoryOf(pid);
      if (!m) continue;
      sum += m.rss;
      hwm.set(pid, Math.max(hwm.get(pid) ?? 0, m.hwm));
    }
    peak = Math.max(peak, sum);
  };
  const timer = linux ? setInterval(() => void (sampling = sampling.then(sample)), opts.sampleMs ?? 100) : undefined;
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on('close', (code) => {
      const ms = performance.now() - started;
      clearInterval(timer);
      void sampling.then(() => {
        // The sampled sum can miss a short spike between samples; each process's own high-water mark cannot.
        const single = Math.max(0, ...hwm.values());
        resolve({ code: code ?? 1, stdout, stderr, ms, peakRssBytes: linux ? Math.max(peak, single) : null });
      });
    });
  });
}

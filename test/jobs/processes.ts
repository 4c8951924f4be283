/** Runs the real `npm run jobs` entry (scripts/jobs.ts through tsx) as child processes, and reads their JSON log lines. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One `npm run jobs -- serve` process. */
export interface JobsProcess {
  child: ChildProcessWithoutNullStreams;
  /** The API origin (api and all roles). */
  url: string;
  /** The JSON log lines so far. */
  logs: Array<Record<string, unknown>>;
  /** Everything it printed, for failure messages. */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Resolves with the first log line that `match` accepts. */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends `signal` (SIGKILL unless told) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Starts `serve` with `args` and resolves once it says it runs; with `fileLimit`, the process may open at most that many files and sockets. */
export async function startJobsProcess(args: string[], options: { fileLimit?: number } = {}): Promise<JobsProcess> {
  const node = [process.execPath, '--import', 'tsx', 'scripts/jobs.ts', 'serve', '--log', ...args];
  // The shell sets the limit (soft and hard, so Node cannot raise it) and becomes the service: `child.pid` is the service's.
  const [command, ...argv] = options.fileLimit === undefined ? node : ['sh', '-c', `ulimit -n ${options.fileLimit} && exec "$@"`, 'sh', ...node];
  const child = spawn(command!, argv, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '' } });
  child.stdin.end();
  let text = '';
  let pending = '';
  const logs: Array<Record<string, unknown>> = [];
  const watchers = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    text += d.toString();
    pending += d.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
    for (const w of watchers) w();
  });
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const started = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const api = /listening on (http:\/\/\S+)/.exec(text);
      if (api) resolve(api[1]!);
      else if (/ASO job worker \S+ running/.test(text)) resolve('');
    };
    watchers.add(check);
    void exited.then((code) => reject(new Error(`jobs serve exited ${code} before it started:\n${text}`)));
  });
  const waitForLog = (match: (line: Record<string, unknown>) => boolean, timeoutMs = 60_000): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = logs.find(match);
        if (found) {
          watchers.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        watchers.delete(check);
        reject(new Error(`no such log line within ${timeoutMs} ms:\n${text}`));
      }, timeoutMs);
      watchers.add(check);
      check();
    });
  return {
    child,
    url: started,
    logs,
    output: () => text,
    exited,
    waitForLog,
    stop: async (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

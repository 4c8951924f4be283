/** How a publish tells what it is doing: numbered steps, and the job's progress as a bar on a terminal or as plain lines. */
import type { ApiJob } from '../jobs/client/parse-job.ts';

/** Where a publish writes. `stream` (a terminal) turns the job's progress lines into a progress bar. */
export interface SubmitIo {
  out(line: string): void;
  err(line: string): void;
  stream?: NodeJS.WriteStream;
}

/** The reporting side of a publish. */
export interface Reporter {
  /** Starts the next step. */
  step(label: string): void;
  /** A job poll. */
  job(job: ApiJob): void;
  /** A line inside the current step. */
  info(line: string): void;
  /** Ends any progress bar. */
  close(): void;
}

interface Bar {
  start(total: number, value: number, payload: Record<string, string>): void;
  update(value: number, payload: Record<string, string>): void;
  stop(): void;
}

/** A reporter over `io` for a publish of `total` steps. */
export async function createReporter(io: SubmitIo, total: number): Promise<Reporter> {
  let n = 0;
  let bar: Bar | undefined;
  let last: { status: string; progress: number } | undefined;
  const useBar = io.stream?.isTTY === true;
  const Progress = useBar ? (await import('cli-progress')).default : undefined;
  const stopBar = (): void => {
    bar?.stop();
    bar = undefined;
  };
  return {
    step(label) {
      stopBar();
      last = undefined;
      io.out(`[${++n}/${total}] ${label}`);
    },
    job(job) {
      const progress = Math.round(job.progress);
      if (Progress && io.stream) {
        if (!bar) {
          bar = new Progress.SingleBar(
            { format: '      job {status} [{bar}] {percentage}%', stream: io.stream, hideCursor: true, clearOnComplete: false },
            Progress.Presets.shades_classic,
          ) as Bar;
          bar.start(100, progress, { status: job.status.padEnd(9) });
        } else bar.update(progress, { status: job.status.padEnd(9) });
        if (job.status !== 'queued' && job.status !== 'running') stopBar();
        return;
      }
      if (last && last.status === job.status && progress - last.progress < 10) return;
      last = { status: job.status, progress };
      io.out(`      job ${job.id}: ${job.status} ${progress}%`);
    },
    info(line) {
      stopBar();
      io.out(`      ${line}`);
    },
    close: stopBar,
  };
}

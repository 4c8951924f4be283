/** Structured logs: one JSON object a line on stdout, with the job id as a field wherever a job is concerned. */

/** The fields of one log line; `msg` says what happened. */
interface LogFields {
  msg: string;
  level?: 'debug' | 'info' | 'warn' | 'error';
  job?: string;
  [field: string]: unknown;
}

/** Writes one log line. */
export type LogFn = (fields: LogFields) => void;

/** The pino level numbers, so these lines read like fastify's request logs. */
const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A logger that writes JSON lines to `write` (stdout unless told), or nothing when disabled. */
export function jsonLogger(enabled: boolean, write: (line: string) => void = (line) => process.stdout.write(line)): LogFn {
  if (!enabled) return () => {};
  return ({ level = 'info', msg, ...fields }) => write(`${JSON.stringify({ level: LEVELS[level], time: Date.now(), pid: process.pid, msg, ...fields })}\n`);
}

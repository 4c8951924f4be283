/**
 * `npm run submit -- --image <path or URL> --model <id> --object <id> [...]`: an image-to-3D job published as a
 * new immutable version and committed on `publish/<id>/<version>`. See `--help`.
 */
import { pathToFileURL } from 'node:url';
import { PublishError } from '../src/publish/publish-error.ts';
import { submit, type SubmitIo } from '../src/publish/submit.ts';
import { parseSubmitArgs, SUBMIT_USAGE } from '../src/publish/submit-options.ts';

/** Runs the command for `argv` and returns its exit code: 0 published, 1 failed, 2 usage, 130 interrupted. */
export async function runSubmit(argv: string[], io: SubmitIo, env: Record<string, string | undefined> = process.env, cwd = process.cwd(), signal?: AbortSignal): Promise<number> {
  try {
    const { help, ...options } = parseSubmitArgs(argv);
    if (help) {
      io.out(SUBMIT_USAGE);
      return 0;
    }
    const result = await submit({ ...options, cwd, env, ...(signal ? { signal } : {}) }, io);
    io.out(`published ${result.id}@${result.version} in ${result.dir}`);
    io.out(`  publication ${result.publicationId}, record hash ${result.recordHash}`);
    if (result.branch) io.out(`  committed ${result.commit!.slice(0, 12)} on branch ${result.branch}; push it and open a pull request`);
    else io.out('  not committed (--no-commit)');
    return 0;
  } catch (error) {
    if (!(error instanceof PublishError)) {
      io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    io.err(`error: ${error.message}`);
    if (error.exitCode === 2) io.err(SUBMIT_USAGE);
    if (error.resumeJobId) io.err(`registry/ is unchanged; the job is kept: continue with npm run submit -- --resume ${error.resumeJobId}`);
    return error.exitCode;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const controller = new AbortController();
  let interrupts = 0;
  const stop = (signal: NodeJS.Signals): void => {
    // The first Ctrl-C stops at the next safe point: a job is kept for --resume, a task is canceled where its provider can. A second one exits at once.
    if (++interrupts > 1) process.exit(130);
    process.stderr.write(`\n${signal}: stopping; the job is kept for --resume, or canceled where its provider can (press Ctrl-C again to quit at once)\n`);
    controller.abort(new Error(`${signal} received`));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const io: SubmitIo = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    ...(process.stderr.isTTY ? { stream: process.stderr } : {}),
  };
  process.exitCode = await runSubmit(process.argv.slice(2), io, process.env, process.cwd(), controller.signal);
  // The built-in service's worker threads are closed by then; exit in case a handle lingers.
  process.exit(process.exitCode);
}

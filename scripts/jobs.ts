/** `npm run jobs -- serve | keys create | keys list | keys revoke`: the reference job service and its keys. */
import { runJobsCli } from '../src/jobs/service/cli.ts';

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line), env: process.env };
const result = await runJobsCli(process.argv.slice(2), io);
if (typeof result === 'number') {
  process.exitCode = result;
} else {
  const stop = (signal: string): void => {
    io.out(`${signal}: stopping; running jobs are handed back to the queue`);
    result.close().then(
      () => process.exit(0),
      (err: Error) => {
        io.err(`error while stopping: ${err.message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

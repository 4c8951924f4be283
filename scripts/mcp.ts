/** `npm run mcp -- --site <URL or dist folder> [--http --port N] [--log-key <key or file>]`: the MCP server over a registry site. */
import { MCP_USAGE, parseMcpArgs, UsageError } from '../src/mcp/mcp-options.ts';
import { startMcp } from '../src/mcp/run-mcp.ts';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

try {
  const options = parseMcpArgs(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(`${MCP_USAGE}\n`);
    process.exit(0);
  }
  const running = await startMcp(options, { cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, log });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void running.close());
  await running.done;
  process.exit(0);
} catch (error) {
  if (error instanceof UsageError) {
    log(`${error.message}\n${MCP_USAGE}`);
    process.exit(2);
  }
  log((error as Error).message);
  process.exit(1);
}

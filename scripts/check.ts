/** `npm run check [-- --json] [-- --registry <dir>]`: validate the registry without building the site. */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { checkRegistry, formatSummary, type CheckResult } from '../src/registry/load-registry.ts';
import { registryDir } from '../src/registry/registry-dir.ts';
import { registryUrl } from '../src/registry/registry-url.ts';

const USAGE = 'usage: npm run check [-- --json] [-- --registry <dir>]';

/** What a run prints and its exit code. */
export interface CheckOutput {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/** Runs the check for the given arguments and environment without exiting the process. */
export async function runCheck(args: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<CheckOutput> {
  let values: { json?: boolean; registry?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, registry: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { code: 2, stdout: '', stderr: `${(error as Error).message}\n${USAGE}\n` };
  }
  if (values.help) return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
  let result: CheckResult & { registry: string; registryUrl: string };
  try {
    const root = values.registry ? registryDir({ ASO_REGISTRY_DIR: values.registry }, cwd) : registryDir(env, cwd);
    const url = registryUrl(env);
    result = { ...(await checkRegistry(root, { registryUrl: url, repoRoot: cwd })), registry: root, registryUrl: url };
  } catch (error) {
    return { code: 2, stdout: '', stderr: `check failed: ${(error as Error).message}\n` };
  }
  if (values.json) {
    const { ok, problems, summary, registryUrl: url } = result;
    return { code: ok ? 0 : 1, stdout: `${JSON.stringify({ ok, registryUrl: url, summary, problems }, null, 2)}\n`, stderr: '' };
  }
  if (!result.ok) return { code: 1, stdout: '', stderr: result.problems.map((p) => `${p}\n`).join('') };
  return { code: 0, stdout: `${formatSummary(result.summary)}\n`, stderr: '' };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = await runCheck(process.argv.slice(2));
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.code;
}

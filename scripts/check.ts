/**
 * `npm run check [-- --json] [-- --strict] [-- --deep] [-- --registry <dir>] [-- --base <git-ref>] [-- --require-signatures]`:
 * validate the registry without building the site; with `--base`, also refuse any change to a version, the ledger or
 * the retractions as they are at `<git-ref>`; with `--require-signatures`, refuse a new version (every version, without
 * `--base`) that its publisher did not sign; with `--strict`, also refuse gltf-validator warnings. A Git LFS pointer is
 * checked against its manifest without the content, and a blob in the store of `ASO_BLOB_STORE` by its size, unless
 * `--deep` downloads and hashes it.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { formatCount } from '@aso-registry/core/documents/format-count';
import { formatNotes, GLTF_WARNING, noteCodes } from '@aso-registry/core/format/gltf-inventory';
import { GitError } from '../src/io/git.ts';
import { gltfValidationOptions } from '../src/registry/gltf-validation-threads.ts';
import { checkAgainstBase, type BaseCheck } from '../src/registry/immutability.ts';
import { checkRegistry, formatSummary, type CheckResult, type FileReport } from '../src/registry/load-registry.ts';
import { formatProblem } from '../src/registry/registry-model.ts';
import { cacheDir, registryDir } from '../src/registry/registry-dir.ts';
import { openRegistryBlobs, type RegistryBlobs } from '../src/registry/registry-blobs.ts';
import { registryUrl } from '../src/registry/registry-url.ts';

const USAGE = 'usage: npm run check [-- --json] [-- --strict] [-- --deep] [-- --registry <dir>] [-- --base <git-ref>] [-- --require-signatures]';

/** What a run prints and its exit code. */
export interface CheckOutput {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/** Runs the check for the given arguments and environment without exiting the process. */
export async function runCheck(args: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<CheckOutput> {
  let values: { json?: boolean; strict?: boolean; deep?: boolean; registry?: string; base?: string; 'require-signatures'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        strict: { type: 'boolean' },
        deep: { type: 'boolean' },
        registry: { type: 'string' },
        base: { type: 'string' },
        'require-signatures': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { code: 2, stdout: '', stderr: `${(error as Error).message}\n${USAGE}\n` };
  }
  if (values.help) return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
  if (values.base !== undefined && values.base.trim() === '') return { code: 2, stdout: '', stderr: `--base needs a git ref, e.g. --base origin/main\n${USAGE}\n` };
  let result: CheckResult & { registry: string; registryUrl: string };
  let base: BaseCheck | undefined;
  let blobs: RegistryBlobs | undefined;
  try {
    const root = values.registry ? registryDir({ ASO_REGISTRY_DIR: values.registry }, cwd) : registryDir(env, cwd);
    const url = registryUrl(env);
    // Resolve the base first: a ref that does not exist is a usage error, whatever the tree holds.
    if (values.base !== undefined) base = await checkAgainstBase(root, values.base, { repoRoot: cwd });
    // A version at the base was published before signatures were required: it stays valid unsigned.
    const atBase = base?.versionKeys;
    const mustSign = values['require-signatures'] ? (id: string, version: string) => !atBase?.has(`${id}@${version}`) : undefined;
    const gltfThreads = gltfValidationOptions(env);
    blobs = openRegistryBlobs(env, cacheDir(env, cwd));
    const store = blobs ? { blobs, deep: values.deep ?? false } : {};
    result = { ...(await checkRegistry(root, { registryUrl: url, repoRoot: cwd, gltfThreads, ...store, ...(mustSign ? { mustSign } : {}) })), registry: root, registryUrl: url };
  } catch (error) {
    const why = error instanceof GitError ? `--base ${values.base}: ${error.message}` : (error as Error).message;
    return { code: 2, stdout: '', stderr: `check failed: ${why}\n` };
  } finally {
    blobs?.close();
  }
  const strict = values.strict ? result.files.flatMap(strictProblem) : [];
  const problems = [...result.problems, ...(base?.problems.map(formatProblem) ?? []), ...strict];
  const ok = problems.length === 0;
  if (values.json) {
    const { summary, registryUrl: url, ledger, retracted, files } = result;
    const doc = {
      ok,
      registryUrl: url,
      summary,
      files,
      ...(ledger ? { ledger } : {}),
      ...(retracted ? { retracted } : {}),
      ...(base ? { base: { ref: values.base, commit: base.commit, versions: base.versions, files: base.files, ledgerLines: base.ledgerLines } } : {}),
      problems,
    };
    return { code: ok ? 0 : 1, stdout: `${JSON.stringify(doc, null, 2)}\n`, stderr: '' };
  }
  if (!ok) return { code: 1, stdout: '', stderr: problems.map((p) => `${p}\n`).join('') };
  const lines = [formatSummary(result.summary)];
  if (result.ledger) {
    const retracted = result.retracted ? `, ${formatCount(result.retracted)} retracted` : '';
    lines.push(`ledger OK: ${formatCount(result.ledger.size)} publication${result.ledger.size === 1 ? '' : 's'}${retracted}, head ${result.ledger.head ?? '(empty)'}`);
  }
  if (base) {
    const v = base.versions;
    lines.push(
      `unchanged since ${values.base} (${base.commit.slice(0, 12)}): ${formatCount(v)} published version${v === 1 ? '' : 's'}, ${formatCount(base.files)} files; ` +
        (base.ledgerLines === null
          ? `the ledger is new`
          : `the ledger keeps its ${formatCount(base.ledgerLines)} line${base.ledgerLines === 1 ? '' : 's'}`),
    );
  }
  // File by file: a registry of 100,000 meshes with a validator note each has too many lines to spread into one call.
  for (const f of result.files) lines.push(...fileLines(f));
  return { code: 0, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' };
}

/** The lines a file adds to a passing check: gltf-validator's warnings and infos, and the reports when no runtime can load it. */
export function fileLines(f: FileReport): string[] {
  const out: string[] = [];
  const notes = f.gltf && formatNotes(f.gltf.notes);
  if (notes) out.push(`${f.file}: ${notes}`);
  if (f.runtimes.length === 0) out.push(`${f.file}: no installed runtime can load it: ${f.compatibility}`);
  return out;
}

/** Under `--strict`, the problem line of a glTF file with validator warnings. */
function strictProblem(f: FileReport): string[] {
  const n = f.gltf?.notes.warnings ?? 0;
  if (n === 0) return [];
  const codes = noteCodes(f.gltf!.notes, GLTF_WARNING).join(', ');
  return [formatProblem({ file: f.file, message: `gltf-validator reported ${formatCount(n)} warning${n === 1 ? '' : 's'}${codes ? ` (${codes})` : ''}; --strict refuses warnings` })];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = await runCheck(process.argv.slice(2));
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.code;
}

/**
 * `npm run new-version -- <files...> --id <id> --version <x.y.z> [options]`: adds a version by hand. The manifest,
 * `publication.json` and the ledger line are made from the files; nothing is written unless `npm run check` would pass.
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatSummary } from '../src/registry/load-registry.ts';
import { cacheDir, registryDir } from '../src/registry/registry-dir.ts';
import { openRegistryBlobs, type RegistryBlobs } from '../src/registry/registry-blobs.ts';
import { registryUrl } from '../src/registry/registry-url.ts';
import { gitUserName } from '../src/publish/git-publish.ts';
import { newVersion } from '../src/publish/new-version.ts';
import { PublishError } from '../src/publish/publish-error.ts';

const USAGE = `usage: npm run new-version -- <file>... --id <object id> --version <x.y.z> [options]

  <file>...                   the representations, named <representation id>.<format> (mesh.glb, reference.jpg)
  --id <id>                   the object (a new one, or a new version of an existing one)
  --version <x.y.z>           the exact version; an existing version is refused
  --name <text>               default: the id
  --description <text>
  --tags <a,b,c>
  --license <SPDX id or text> e.g. CC-BY-4.0
  --generator <text>          what made the files
  --preview <image>           an image shown as the preview (preview.png)
  --created-at <date-time>    RFC 3339; default now
  --source <text>             provenance.source: where the files come from
  --publisher <label>         default: git's user.name
  --registry <dir>            default: ./registry or $ASO_REGISTRY_DIR
  --json                      print the result as JSON on stdout (use npm run --silent new-version -- ... --json)`;

/** What a run prints and its exit code. */
export interface NewVersionOutput {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/** Runs the command without exiting the process. */
export async function runNewVersion(args: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<NewVersionOutput> {
  const str = { type: 'string' } as const;
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        id: str, version: str, name: str, description: str, tags: str, license: str, generator: str, preview: str,
        'created-at': str, source: str, publisher: str, registry: str, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { code: 2, stdout: '', stderr: `${(error as Error).message}\n${USAGE}\n` };
  }
  const { values: v, positionals: files } = parsed;
  if (v.help) return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
  const fail = (code: 1 | 2, message: string): NewVersionOutput =>
    v.json
      ? { code, stdout: `${JSON.stringify({ ok: false, error: message }, null, 2)}\n`, stderr: '' }
      : { code, stdout: '', stderr: `${message}${code === 2 ? `\n${USAGE}` : ''}\n` };
  if (v.id === undefined) return fail(2, '--id is required');
  if (v.version === undefined) return fail(2, '--version is required');
  const lines: string[] = [];
  let n = 0;
  const report = {
    step: (label: string) => void lines.push(`[${++n}] ${label}`),
    info: (line: string) => void lines.push(`    ${line}`),
    job: () => {},
    close: () => {},
  };
  const root = v.registry ? registryDir({ ASO_REGISTRY_DIR: v.registry }, cwd) : registryDir(env, cwd);
  let blobs: RegistryBlobs | undefined;
  try {
    blobs = openRegistryBlobs(env, cacheDir(env, cwd));
    const publisher = v.publisher?.trim() || (await gitUserName(cwd)) || 'unknown';
    const result = await newVersion(
      {
        files: files.map((f) => resolve(cwd, f)),
        ...(v.preview !== undefined ? { preview: resolve(cwd, v.preview) } : {}),
        id: v.id,
        version: v.version,
        name: v.name,
        description: v.description,
        tags: v.tags?.split(',').map((t) => t.trim()).filter(Boolean),
        license: v.license,
        generator: v.generator,
        createdAt: v['created-at'],
        source: v.source,
        publisher,
      },
      { registryRoot: root, registryUrl: registryUrl(env), repoRoot: cwd, ...(blobs ? { blobs } : {}) },
      report,
    );
    const dir = relative(cwd, result.dir).split(sep).join('/');
    if (v.json) {
      const { check, ...rest } = result;
      return { code: check.ok ? 0 : 1, stdout: `${JSON.stringify({ ok: check.ok, ...rest, dir, check }, null, 2)}\n`, stderr: '' };
    }
    const n = result.representations.length;
    const written = blobs ? `; its ${n} file${n === 1 ? '' : 's'} in ${blobs.label}` : `, ${n} file${n === 1 ? '' : 's'}`;
    const out = [
      ...lines,
      `wrote ${dir}/ (aso.object.json, publication.json${written}) and its ledger line`,
      `publication ${result.publicationId}, record hash ${result.recordHash}`,
      ...(result.check.ok ? [formatSummary(result.check.summary)] : []),
    ];
    if (!result.check.ok) return { code: 1, stdout: out.map((l) => `${l}\n`).join(''), stderr: result.check.problems.map((p) => `${p}\n`).join('') };
    return { code: 0, stdout: out.map((l) => `${l}\n`).join(''), stderr: '' };
  } catch (error) {
    if (error instanceof PublishError) return fail(error.exitCode === 2 ? 2 : 1, error.message);
    return fail(1, (error as Error).message);
  } finally {
    blobs?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = await runNewVersion(process.argv.slice(2));
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.code;
}

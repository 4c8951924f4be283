/**
 * `npx tsx scripts/ledger.ts <command>`: keep `registry/ledger.jsonl` and `registry/retractions.jsonl`.
 *
 *   append <id>@<version>...          append the publication of each version (from its publication.json), signing it
 *                                     first when ASO_PUBLISHER_KEY or ASO_PUBLISHER_KEY_FILE holds the publisher's key
 *   init                              start the ledger of a registry that has none, oldest publication first
 *   retract <id>@<version> --reason   retract a published version (its files stay as they are)
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isDateTime, ledgerFrom } from '@aso-registry/core/log/ledger';
import { parseVersionRef } from '@aso-registry/core/format/object-id';
import { writeFileAtomic } from '../src/io/atomic-file.ts';
import { appendLedgerEntry } from '../src/publish/append-ledger.ts';
import { allPublications, ledgerPath, publicationOf } from '../src/registry/ledger-file.ts';
import { registryDir } from '../src/registry/registry-dir.ts';
import { retractVersion } from '../src/publish/retract-version.ts';
import { signVersion } from '../src/publish/sign-version.ts';
import { PUBLISHER_KEY_VARIABLES, signerKeyFromEnv } from '../src/io/signer-key.ts';
import { checkVersionFolder, exists, targetDir } from '../src/publish/write-version.ts';
import { registryUrl } from '../src/registry/registry-url.ts';
import { readOptionalText } from '../src/io/read-optional-text.ts';

const USAGE = `usage: npx tsx scripts/ledger.ts <command> [--registry <dir>]

  append <id>@<version>...                     append each version's publication to registry/ledger.jsonl
  init                                         write a new ledger with every version, in publishedAt order
  retract <id>@<version> --reason <text> [--at <date-time>]
                                               retract a published version in registry/retractions.jsonl`;

/** What a run prints and its exit code. */
export interface LedgerOutput {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/** Runs a command without exiting the process. */
export async function runLedger(args: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<LedgerOutput> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { registry: { type: 'string' }, reason: { type: 'string' }, at: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { code: 2, stdout: '', stderr: `${(error as Error).message}\n${USAGE}\n` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
  const [command, ...refs] = positionals;
  const root = values.registry ? registryDir({ ASO_REGISTRY_DIR: values.registry }, cwd) : registryDir(env, cwd);
  const usage = (message: string): LedgerOutput => ({ code: 2, stdout: '', stderr: `${message}\n${USAGE}\n` });
  const parsedRefs = refs.map(parseVersionRef);
  const bad = parsedRefs.find((r): r is string => typeof r === 'string');
  if (bad) return usage(bad);
  const versions = parsedRefs as Array<{ id: string; version: string }>;

  try {
    switch (command) {
      case 'append': {
        if (versions.length === 0) return usage('append needs at least one <id>@<version>');
        // A line is forever: refuse a version that npm run check would refuse, before anything is appended.
        const url = registryUrl(env);
        for (const v of versions) {
          const dir = targetDir(root, v.id, v.version);
          if (!(await exists(dir))) continue; // publicationOf below says what is missing
          const problems = await checkVersionFolder(root, dir, dir, v, url, cwd);
          if (problems.length) {
            return {
              code: 1,
              stdout: '',
              stderr: `${v.id}@${v.version} does not pass npm run check, so no ledger line was appended (a line can never be removed); fix the version first:\n${problems.map((p) => `  ${p}\n`).join('')}`,
            };
          }
        }
        const lines: string[] = [];
        // With a publisher key in the environment, an unsigned version is signed before its line is appended.
        const signer = await signerKeyFromEnv(env, PUBLISHER_KEY_VARIABLES, cwd);
        for (const v of versions) {
          if (signer && (await publicationOf(root, v.id, v.version)).signature === undefined) {
            const signed = await signVersion(root, v.id, v.version, signer);
            lines.push(`signed ${v.id}@${v.version} by ${signer.name}+${signed.keyId}`);
          }
          const entry = await appendLedgerEntry(root, await publicationOf(root, v.id, v.version));
          lines.push(`ledger line ${entry.seq}: ${entry.id}@${entry.version} ${entry.recordHash}`);
        }
        return { code: 0, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' };
      }
      case 'init': {
        if (versions.length) return usage('init takes no version');
        if ((await readOptionalText(ledgerPath(root))) !== null) {
          return { code: 1, stdout: '', stderr: `${ledgerPath(root)}: exists already; the ledger is append-only (use append)\n` };
        }
        const all = await allPublications(root);
        await writeFileAtomic(ledgerPath(root), await ledgerFrom(all));
        return { code: 0, stdout: `wrote ${all.length} line${all.length === 1 ? '' : 's'} to ${ledgerPath(root)}\n`, stderr: '' };
      }
      case 'retract': {
        if (versions.length !== 1) return usage('retract needs exactly one <id>@<version>');
        if (!values.reason?.trim()) return usage('retract needs --reason <why the version is retracted>');
        if (values.at !== undefined && !isDateTime(values.at)) return usage(`--at "${values.at}" is not an RFC 3339 date-time (e.g. 2026-03-01T12:00:00Z)`);
        const entry = await retractVersion(root, { ...versions[0]!, reason: values.reason, ...(values.at ? { retractedAt: values.at } : {}) });
        return { code: 0, stdout: `retracted ${entry.id}@${entry.version} at ${entry.retractedAt}: ${entry.reason}\n`, stderr: '' };
      }
      default:
        return usage(command ? `unknown command "${command}"` : 'which command?');
    }
  } catch (error) {
    return { code: 1, stdout: '', stderr: `${(error as Error).message}\n` };
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = await runLedger(process.argv.slice(2));
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.code;
}

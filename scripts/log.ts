/**
 * `npm run log -- <command>`: the registry's transparency log and signing keys.
 *
 *   keygen [--name <origin>] [--out <file>] [--force]     the log's key pair: registry/log.pub and a private key file
 *   keygen --publisher <name> [--out <file>] [--force]   a publisher's key pair: registry/publishers/<name>.pub
 *   sign <id>@<version>...                               sign versions added by hand (ASO_PUBLISHER_KEY[_FILE])
 *   checkpoint                                           print the checkpoint of registry/ledger.jsonl
 *   verify-site <url> [--key <key or file>] [--allow-unsigned]   verify a deployed site, with a progress bar
 */
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { checkpointNote } from '@aso-registry/core/log/checkpoint';
import { formatCount } from '@aso-registry/core/documents/format-count';
import { LOG_KEY_VARIABLES, PUBLISHER_KEY_VARIABLES, signerKeyFromEnv } from '../src/io/signer-key.ts';
import { generateLogKey, generatePublisherKey, KEYS_DIR } from '../src/publish/keygen.ts';
import { signVersion } from '../src/publish/sign-version.ts';
import { registryDir } from '../src/registry/registry-dir.ts';
import { loadRegistryKeys } from '../src/registry/registry-keys.ts';
import { registryUrl } from '../src/registry/registry-url.ts';
import { checkSigningKey } from '../src/site/build/log-files.ts';
import { readSiteLog, logOrigin } from '../src/site/data/site-log.ts';
import { verifySite, type SiteProgress } from '../packages/sdk/src/verify-site.ts';
import { parseVersionRef } from '@aso-registry/core/format/object-id';
import { LOG_KEY_FILE } from '../src/registry/registry-files.ts';

const USAGE = `usage: npm run log -- <command> [--registry <dir>]

  keygen [--name <origin>] [--out <file>] [--force]
        make the log's key pair: the public key to registry/log.pub, the private key to --out
        (default ${KEYS_DIR}/log.key, which git ignores); builds sign with it when ${LOG_KEY_VARIABLES.key} holds the
        key or ${LOG_KEY_VARIABLES.file} names the file
  keygen --publisher <name> [--out <file>] [--force]
        make a publisher's key pair: the public key is added to registry/publishers/<name>.pub, the private key
        goes to --out (default ${KEYS_DIR}/publisher-<name>.key); npm run submit and sign use it from
        ${PUBLISHER_KEY_VARIABLES.key} or ${PUBLISHER_KEY_VARIABLES.file}; when the file has keys already, the key
        those variables hold must be one of them, and endorses the new one
  sign <id>@<version>...
        sign versions added by hand, before their ledger line is appended
  checkpoint
        print the checkpoint of registry/ledger.jsonl (signed when ${LOG_KEY_VARIABLES.key} or ${LOG_KEY_VARIABLES.file} is set)
  verify-site <url> [--key <verifier key or file>] [--allow-unsigned] [--concurrency <n>]
        verify a deployed site: the checkpoint's signature (against --key, default registry/log.pub), every tile,
        ledger.jsonl against the log, every inclusion proof, every publisher signature and every byte against
        its manifest`;

/** What a run prints and its exit code. */
export interface LogOutput {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/** Where a run writes its progress: a terminal gets a bar. */
export interface LogIo {
  stream?: NodeJS.WriteStream;
}

/** Runs a command without exiting the process. */
export async function runLog(args: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd(), io: LogIo = {}): Promise<LogOutput> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        registry: { type: 'string' },
        name: { type: 'string' },
        publisher: { type: 'string' },
        out: { type: 'string' },
        force: { type: 'boolean' },
        key: { type: 'string' },
        'allow-unsigned': { type: 'boolean' },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { code: 2, stdout: '', stderr: `${(error as Error).message}\n${USAGE}\n` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
  const usage = (message: string): LogOutput => ({ code: 2, stdout: '', stderr: `${message}\n${USAGE}\n` });
  const root = values.registry ? registryDir({ ASO_REGISTRY_DIR: values.registry }, cwd) : registryDir(env, cwd);
  const [command, ...rest] = positionals;
  const show = (path: string): string => relative(cwd, path) || path;

  try {
    switch (command) {
      case 'keygen': {
        if (rest.length) return usage('keygen takes no positional argument');
        const force = values.force ?? false;
        if (values.publisher !== undefined) {
          if (values.name !== undefined) return usage('--name is for the log key; a publisher key is named by --publisher');
          const endorser = () => signerKeyFromEnv(env, PUBLISHER_KEY_VARIABLES, cwd);
          const made = await generatePublisherKey(root, values.publisher, { cwd, force, endorser, ...(values.out ? { out: values.out } : {}) });
          return {
            code: 0,
            stdout:
              `publisher key ${made.key.name}+${made.key.keyId}\n` +
              `  public key added to ${show(made.publicFile)} (commit it)\n` +
              (made.endorsedBy ? `  endorsed by ${made.endorsedBy.name}+${made.endorsedBy.keyId}\n` : '') +
              `  private key in ${show(made.privateFile)} (keep it secret; never commit it)\n` +
              `  sign with: export ${PUBLISHER_KEY_VARIABLES.file}=${show(made.privateFile)}\n`,
            stderr: '',
          };
        }
        const name = values.name ?? logOrigin(registryUrl(env), null);
        const made = await generateLogKey(root, name, { cwd, force, ...(values.out ? { out: values.out } : {}) });
        return {
          code: 0,
          stdout:
            `log key ${made.key.name}+${made.key.keyId}\n` +
            `  public key in ${show(made.publicFile)} (commit it; clients pin it)\n` +
            `  private key in ${show(made.privateFile)} (keep it secret; never commit it)\n` +
            `  sign checkpoints with: export ${LOG_KEY_VARIABLES.file}=${show(made.privateFile)} (or put the key in ${LOG_KEY_VARIABLES.key} in CI)\n`,
          stderr: '',
        };
      }
      case 'sign': {
        if (rest.length === 0) return usage('sign needs at least one <id>@<version>');
        const refs = rest.map(parseVersionRef);
        const bad = refs.find((r): r is string => typeof r === 'string');
        if (bad) return usage(bad);
        const signer = await signerKeyFromEnv(env, PUBLISHER_KEY_VARIABLES, cwd);
        if (!signer) return usage(`sign needs the publisher's key: set ${PUBLISHER_KEY_VARIABLES.key} or ${PUBLISHER_KEY_VARIABLES.file}`);
        const lines: string[] = [];
        for (const ref of refs as Array<{ id: string; version: string }>) {
          const done = await signVersion(root, ref.id, ref.version, signer);
          lines.push(`${ref.id}@${ref.version}: ${done.changed ? 'signed' : 'already signed'} by ${signer.name}+${done.keyId} (${show(done.file)})`);
        }
        return { code: 0, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' };
      }
      case 'checkpoint': {
        if (rest.length) return usage('checkpoint takes no argument');
        const keys = await loadRegistryKeys(root);
        const signer = await signerKeyFromEnv(env, LOG_KEY_VARIABLES, cwd);
        checkSigningKey(signer, keys.logKey, env[LOG_KEY_VARIABLES.key]?.trim() ? LOG_KEY_VARIABLES.key : LOG_KEY_VARIABLES.file);
        const log = await readSiteLog(root, registryUrl(env), keys.logKey);
        if (!log) return { code: 1, stdout: '', stderr: `${show(root)} keeps no ledger.jsonl: there is no log\n` };
        return { code: 0, stdout: checkpointNote(log.checkpoint, signer), stderr: signer ? '' : 'unsigned: no log key in the environment\n' };
      }
      case 'verify-site': {
        if (rest.length !== 1) return usage('verify-site needs the site\'s URL');
        const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
        if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) return usage(`--concurrency must be a whole number >= 1, not "${values.concurrency}"`);
        let keyText: string | undefined = values.key;
        if (keyText !== undefined && !keyText.includes('+')) keyText = await readFile(resolve(cwd, keyText), 'utf8');
        if (keyText === undefined) keyText = (await readFile(resolve(root, LOG_KEY_FILE), 'utf8').catch(() => undefined)) ?? undefined;
        let origin: string;
        try {
          origin = new URL(rest[0]!).origin;
        } catch {
          return usage(`"${rest[0]}" is not a URL`);
        }
        const bar = await progressBar(io);
        const result = await verifySite({
          origin,
          ...(keyText !== undefined ? { logKey: keyText } : {}),
          allowUnsigned: values['allow-unsigned'] ?? false,
          ...(concurrency ? { concurrency } : {}),
          onProgress: bar.update,
        }).finally(bar.stop);
        const c = result.checkpoint;
        const summary =
          `${origin}: checkpoint ${c ? `${c.origin}, ${formatCount(c.size)} entries, ${c.signedBy ? `signed by ${c.signedBy}` : c.signature}` : 'unreadable'}; ` +
          `${formatCount(result.versions)} versions proven in the log (${formatCount(result.signed)} signed by their publisher), ` +
          `${formatCount(result.tiles)} tiles, ${formatCount(result.files)} files, ${formatCount(result.bytes)} bytes verified\n`;
        if (!result.ok) return { code: 1, stdout: summary, stderr: result.problems.map((p) => `${p}\n`).join('') };
        return { code: 0, stdout: `${summary}site OK\n`, stderr: '' };
      }
      default:
        return usage(command ? `unknown command "${command}"` : 'which command?');
    }
  } catch (error) {
    return { code: 1, stdout: '', stderr: `${(error as Error).message}\n` };
  }
}

/** A progress bar on a terminal (cli-progress), nothing otherwise. */
async function progressBar(io: LogIo): Promise<{ update: (p: SiteProgress) => void; stop: () => void }> {
  if (!io.stream?.isTTY) return { update: () => {}, stop: () => {} };
  const { default: Progress } = await import('cli-progress');
  const bar = new Progress.SingleBar(
    { format: 'verify [{bar}] {value}/{total} {item}', stream: io.stream, hideCursor: true, clearOnComplete: true },
    Progress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (p) => {
      if (!started) {
        bar.start(p.total, 0, { item: '' });
        started = true;
      }
      bar.update(p.done, { item: p.item });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = await runLog(process.argv.slice(2), process.env, process.cwd(), { stream: process.stderr });
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.code;
}

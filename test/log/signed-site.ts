/** A small registry with a log key and a signing publisher, built into a site with a signed checkpoint: shared by the log tests. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCheck } from '../../scripts/check.ts';
import { runLedger } from '../../scripts/ledger.ts';
import { runLog } from '../../scripts/log.ts';
import { parseVerifierKey, type SignerKey, type VerifierKey } from '@aso-registry/core/log/signed-note';
import { parseSignerKey } from '@aso-registry/core/log/note-signer';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

/** The built site and everything a test needs to check or forge it. */
export interface SignedSite {
  parent: string;
  root: string;
  dist: string;
  logKey: SignerKey;
  logPub: VerifierKey;
  logPubFile: string;
  /** The log's private key file, for a rebuild. */
  logKeyFile: string;
  alice: SignerKey;
  /** The ledger's lines, in order. */
  lines: string[];
  /** `<id>@<version>` of the version alice signed. */
  signed: { id: string; version: string };
}

const ok = (what: string, out: { code: number; stdout: string; stderr: string }): void => {
  if (out.code !== 0) throw new Error(`${what} exited ${out.code}: ${out.stderr}${out.stdout}`);
};

/**
 * Four unsigned versions and one that alice signed (the fourth of five ledger lines), built with the log key.
 * `prepare` changes the registry (with `runLedger` and the fixtures) after those and before the check and the build.
 */
export async function signedSite(prepare?: (root: string, parent: string) => Promise<void>): Promise<SignedSite> {
  const { parent, root } = await tempRegistry('aso-log-site-');
  const file = async (shade: number) => ({ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes(16, 12, { r: shade, g: 90, b: 40 }) });
  for (const [i, id] of ['alpha-one', 'beta-two', 'gamma-three'].entries()) await writeVersion(root, { id, version: '1.0.0', files: [await file(20 * i)] });
  ok('ledger init', await runLedger(['init', '--registry', root], {}, parent));
  const logKeyFile = join(parent, 'keys', 'log.key');
  const aliceKeyFile = join(parent, 'keys', 'alice.key');
  ok('keygen', await runLog(['keygen', '--registry', root, '--out', logKeyFile], {}, parent));
  ok('keygen --publisher', await runLog(['keygen', '--publisher', 'alice', '--registry', root, '--out', aliceKeyFile], {}, parent));

  const signed = { id: 'delta-four', version: '1.0.0' };
  await writeVersion(root, { ...signed, files: [await file(200)] });
  const pubFile = join(root, 'objects', signed.id, 'versions', signed.version, 'publication.json');
  const pub = JSON.parse(await readFile(pubFile, 'utf8')) as Record<string, unknown>;
  await writeFile(pubFile, `${JSON.stringify({ ...pub, publisher: 'alice', publishedAt: '2026-01-03T00:00:00Z' }, null, 2)}\n`);
  ok('ledger append (signing)', await runLedger(['append', `${signed.id}@${signed.version}`, '--registry', root], { ASO_PUBLISHER_KEY_FILE: aliceKeyFile }, parent));
  await writeVersion(root, { id: 'epsilon-five', version: '2.0.0', files: [await file(250)] });
  ok('ledger append', await runLedger(['append', 'epsilon-five@2.0.0', '--registry', root], {}, parent));
  await prepare?.(root, parent);
  ok('check', await runCheck(['--registry', root], {}, parent));

  const dist = join(parent, 'dist');
  const built = await buildSite({ outDir: dist, registryDir: root, env: { ASO_LOG_KEY_FILE: logKeyFile } });
  if (built.code !== 0) throw new Error(`build failed:\n${built.stdout}\n${built.stderr}`);
  const logPubFile = join(root, 'log.pub');
  return {
    parent,
    root,
    dist,
    logKey: parseSignerKey(await readFile(logKeyFile, 'utf8')),
    logPub: parseVerifierKey(await readFile(logPubFile, 'utf8')),
    logPubFile,
    logKeyFile,
    alice: parseSignerKey(await readFile(aliceKeyFile, 'utf8')),
    lines: (await readFile(join(root, 'ledger.jsonl'), 'utf8')).trimEnd().split('\n'),
    signed,
  };
}

/**
 * `verify_object`: every check of one version, each with its result: the manifest against the record hash, the bytes of
 * every file against the manifest, the log proof, the checkpoint's signature and the publisher's signature. Any check
 * that fails makes the result a failure (`ok: false`, `isError`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { AsoSdkError, IntegrityError, InvalidResponseError, type AsoClient, type LogVerification, type ObjectVersion } from '@aso-registry/sdk';
import type { RegistryContext } from './registry-context.ts';
import { toolResult } from './tool-result.ts';

const inputSchema = z.object({
  id: z.string().describe('the object id'),
  version: z.string().describe('an exact version (or "latest", or a SemVer range)'),
});

const factsSchema = z.object({ byteLength: z.number().int(), hash: z.string() });

const checkSchema = z.object({
  check: z.enum(['record-hash', 'representation', 'log-proof', 'checkpoint-signature', 'publisher-signature']),
  subject: z.string().describe('what was checked: a URL, a representation id, the checkpoint'),
  status: z.enum(['pass', 'fail', 'skipped']).describe('skipped: there was nothing to check, or an earlier check failed'),
  detail: z.string(),
  expected: factsSchema.optional(),
  actual: factsSchema.optional(),
});

type Check = z.infer<typeof checkSchema>;

const outputSchema = z.object({
  id: z.string(),
  version: z.string(),
  ok: z.boolean().describe('true only when no check failed'),
  summary: z.string(),
  recordHash: z.string().nullable(),
  retracted: z.boolean().nullable(),
  checks: z.array(checkSchema),
});

/** The manifest against its record hash, and the API document's files against the manifest: the check every other one stands on. */
async function recordCheck(client: AsoClient, id: string, version: string): Promise<{ doc: ObjectVersion | null; check: Check }> {
  try {
    // The log is proven on its own below, so that each check has its own result.
    const doc = await client.getObject(id, version, { log: 'skip', ledger: 'skip' });
    return {
      doc,
      check: {
        check: 'record-hash',
        subject: doc.manifestUrl,
        status: 'pass',
        detail: `aso.object.json hashes to ${doc.publication.recordHash}, and the API document lists exactly the files it declares`,
      },
    };
  } catch (error) {
    if (!(error instanceof IntegrityError || error instanceof InvalidResponseError)) throw error;
    return { doc: null, check: { check: 'record-hash', subject: error.url, status: 'fail', detail: error.message } };
  }
}

/** Fetches and hashes each file the verified manifest declares, the preview last. */
async function representationChecks(client: AsoClient, doc: ObjectVersion): Promise<Check[]> {
  const reps = [...doc.manifest.representations, ...(doc.manifest.preview ? [doc.manifest.preview] : [])];
  return Promise.all(
    reps.map(async (rep): Promise<Check> => {
      const expected = { byteLength: rep.byteLength, hash: rep.hash };
      try {
        const result = await client.checkIntegrity(rep);
        const actual = { byteLength: result.byteLength.actual, hash: result.hash.actual };
        const detail = result.ok
          ? `${result.url}: ${actual.byteLength} bytes with the declared SHA-256`
          : `${result.url}: expected ${expected.byteLength} bytes ${expected.hash}, got ${actual.byteLength}${result.complete ? '' : '+'} bytes ${actual.hash}`;
        return { check: 'representation', subject: rep.id, status: result.ok ? 'pass' : 'fail', detail, expected, actual };
      } catch (error) {
        if (!(error instanceof AsoSdkError)) throw error;
        return { check: 'representation', subject: rep.id, status: 'fail', detail: error.message, expected };
      }
    }),
  );
}

/** The log proof, then what it says of the checkpoint's and the publisher's signatures. */
async function logChecks(client: AsoClient, doc: ObjectVersion, logKeyPinned: boolean): Promise<Check[]> {
  const subject = `${doc.id}@${doc.version}`;
  if (!doc.log && !logKeyPinned) {
    const none = 'the registry publishes no log proof for this version';
    return [
      { check: 'log-proof', subject, status: 'skipped', detail: none },
      { check: 'checkpoint-signature', subject: 'checkpoint', status: 'skipped', detail: none },
      { check: 'publisher-signature', subject, status: 'skipped', detail: none },
    ];
  }
  let proof: LogVerification;
  try {
    proof = await client.verifyInclusion(doc.id, doc.version);
  } catch (error) {
    if (!(error instanceof AsoSdkError)) throw error;
    const notReached = 'not checked: the log proof failed';
    return [
      { check: 'log-proof', subject, status: 'fail', detail: error.message },
      { check: 'checkpoint-signature', subject: 'checkpoint', status: 'skipped', detail: notReached },
      { check: 'publisher-signature', subject, status: 'skipped', detail: notReached },
    ];
  }
  const c = proof.checkpoint;
  const signature: Check =
    c.signature === 'verified'
      ? { check: 'checkpoint-signature', subject: 'checkpoint', status: 'pass', detail: `signed by the pinned log key ${c.signedBy}` }
      : {
          check: 'checkpoint-signature',
          subject: 'checkpoint',
          status: 'skipped',
          detail: c.signature === 'unsigned' ? 'the checkpoint is unsigned' : 'the checkpoint is signed, but no log key is pinned (start the server with --log-key)',
        };
  return [
    {
      check: 'log-proof',
      subject,
      status: 'pass',
      detail: `leaf ${proof.leafIndex} is in the log ${c.origin} of ${c.size} entries (root ${c.rootHash})${proof.consistency ? `, which extends the checkpoint of ${proof.consistency.from} entries seen before` : ''}`,
    },
    signature,
    proof.publisher
      ? { check: 'publisher-signature', subject, status: 'pass', detail: `signed by publisher ${proof.publisher.name}+${proof.publisher.keyId}` }
      : { check: 'publisher-signature', subject, status: 'skipped', detail: 'the version is published unsigned' },
  ];
}

export function registerVerifyObject(server: McpServer, { client, logKeyPinned }: RegistryContext): void {
  server.registerTool(
    'verify_object',
    {
      title: 'Verify an object version',
      description:
        'Fetches and hashes every file of a version against its manifest, checks the manifest against its record hash, proves the version in the transparency log ' +
        'and checks the checkpoint and publisher signatures where there are any. Returns each check with its result; any failed check makes the result an error with ok: false.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ id, version }) => {
      const record = await recordCheck(client, id, version);
      const checks = [record.check];
      if (record.doc) checks.push(...(await representationChecks(client, record.doc)), ...(await logChecks(client, record.doc, logKeyPinned)));
      const failed = checks.filter((c) => c.status === 'fail');
      const resolved = record.doc?.version ?? version;
      const summary = failed.length
        ? `${id}@${resolved} FAILED ${failed.length} of ${checks.length} checks: ${failed.map((c) => `${c.check} ${c.subject}`).join(', ')}`
        : `${id}@${resolved}: ${checks.filter((c) => c.status === 'pass').length} checks passed, ${checks.filter((c) => c.status === 'skipped').length} skipped`;
      const out: z.infer<typeof outputSchema> = {
        id,
        version: resolved,
        ok: failed.length === 0,
        summary,
        recordHash: record.doc?.publication.recordHash ?? null,
        retracted: record.doc ? Boolean(record.doc.retracted) : null,
        checks,
      };
      return toolResult(out, !out.ok);
    },
  );
}

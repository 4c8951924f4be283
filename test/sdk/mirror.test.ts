/**
 * The SDK against a mirror that tampers with a signed copy of the built sample site: it must return only what the
 * manifest (bound to the log by its record hash) declares, never skip the log once its key is pinned, and accept only
 * checkpoints whose origin is the pinned key's name.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRepresentation, ApiVersion } from '@aso-registry/core/documents/api-types';
import { checkpointNote } from '@aso-registry/core/log/checkpoint';
import { sriOf, sriToHex } from '@aso-registry/core/format/sri';
import { createClient, IntegrityError, LogError } from '@aso-registry/sdk';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { rejection } from './support/rejection.ts';
import { signedSiteCopy, type SignedSiteCopy } from './support/signed-site-copy.ts';

let site: SignedSiteCopy;
let server: StaticServer;

beforeAll(async () => {
  site = await signedSiteCopy();
  server = await serveStatic(site.dir);
});
afterAll(async () => {
  await server?.close();
  await site?.remove();
});
afterEach(() => server.setOverride(undefined));

const API_DOC = '/api/v1/objects/oak-chair/versions/1.0.0.json';
const MESH = '/objects/oak-chair/versions/1.0.0/representations/mesh.glb';
const client = () => createClient({ origin: server.origin, logKey: site.key.text });

/** Serves the given bodies (or 404 for null) in place of the site's files. */
function mirror(files: Record<string, string | Uint8Array | null>): void {
  server.setOverride((path) => {
    if (!Object.hasOwn(files, path)) return undefined;
    const body = files[path];
    return body === null || body === undefined ? { status: 404, body: 'not found' } : { body };
  });
}

/** The API document with its representations changed by `change`. */
async function withRepresentations(change: (reps: ApiRepresentation[]) => ApiRepresentation[]): Promise<string> {
  const doc = await site.readJson<ApiVersion>(API_DOC);
  return JSON.stringify({ ...doc, representations: change(doc.representations.map((r) => ({ ...r }))) });
}

describe('a mirror that changes what the API document says of the files', () => {
  it('refuses a representation whose hash and length were changed to those of other bytes it serves', async () => {
    // Untouched, every representation is the log-bound manifest's, and its bytes match.
    const got = await client().getObject('oak-chair', '1.0.0');
    expect(got.logVerified?.checkpoint.signature).toBe('verified');
    const declared = [...got.manifest.representations, ...(got.manifest.preview ? [got.manifest.preview] : [])];
    expect(got.representations.map(({ id, url, byteLength, hash }) => ({ id, url, byteLength, hash }))).toEqual(
      declared.map(({ id, url, byteLength, hash }) => ({ id, url, byteLength, hash })),
    );
    for (const rep of got.representations) expect((await client().checkIntegrity(rep)).ok, rep.id).toBe(true);

    const other = await site.read('/objects/brass-lantern/versions/1.0.0/representations/mesh.glb');
    const hash = await sriOf(other);
    const manifestMesh = (await site.readJson<ApiVersion>(API_DOC)).manifest.representations.find((r) => r.id === 'mesh')!;
    mirror({
      [API_DOC]: await withRepresentations((reps) => reps.map((r) => (r.id === 'mesh' ? { ...r, hash, sha256: sriToHex(hash), byteLength: other.byteLength } : r))),
      [MESH]: other,
    });
    const error = await rejection(client().getObject('oak-chair', '1.0.0'));
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as IntegrityError).expected).toEqual({ hash: manifestMesh.hash, byteLength: manifestMesh.byteLength });
    expect((error as IntegrityError).actual).toEqual({ hash, byteLength: other.byteLength });
    expect((error as Error).message).toBe(
      `integrity failure: representation "mesh" in ${server.origin}${API_DOC}: it declares ${other.byteLength} bytes ${hash}, ` +
        `but the verified manifest says ${manifestMesh.byteLength} bytes ${manifestMesh.hash}`,
    );
  });

  it('refuses a preview that points elsewhere, a representation added, and one left out', async () => {
    const cases: Array<[string, (reps: ApiRepresentation[]) => ApiRepresentation[], RegExp]> = [
      [
        'preview url',
        (reps) => reps.map((r) => (r.role === 'preview' ? { ...r, url: r.url.replace('preview.png', 'other.png') } : r)),
        /representation "preview" in .*: its url is ".*\/other\.png", but the verified manifest says ".*\/preview\.png"$/,
      ],
      [
        'added',
        (reps) => [...reps, { ...reps[0]!, id: 'extra', url: reps[0]!.url.replace('mesh.glb', 'extra.glb') }],
        /: it lists mesh, reference, preview \(preview\), extra, but the verified manifest declares mesh, reference, preview \(preview\)$/,
      ],
      ['left out', (reps) => reps.filter((r) => r.id !== 'reference'), /: it lists mesh, preview \(preview\), but the verified manifest declares mesh, reference, preview \(preview\)$/],
    ];
    for (const [what, change, message] of cases) {
      mirror({ [API_DOC]: await withRepresentations(change) });
      const error = await rejection(client().getObject('oak-chair', '1.0.0'));
      expect(error, what).toBeInstanceOf(IntegrityError);
      expect((error as Error).message, what).toMatch(message);
    }
  });
});

describe('a mirror that drops the log proof', () => {
  it('cannot pass a forged manifest once the log key is pinned: auto means require', async () => {
    const doc = await site.readJson<ApiVersion & { log?: unknown }>(API_DOC);
    const forged = new TextEncoder().encode(`${JSON.stringify({ ...doc.manifest, name: 'Forged chair' }, null, 2)}\n`);
    const recordHash = await sriOf(forged);
    const { log: _dropped, ...rest } = doc;
    mirror({
      [API_DOC]: JSON.stringify({ ...rest, manifest: { ...doc.manifest, name: 'Forged chair' }, publication: { ...doc.publication, recordHash } }),
      '/objects/oak-chair/versions/1.0.0/aso.object.json': forged,
      '/api/v1/ledger.json': null,
      '/ledger.jsonl': null,
    });
    for (const options of [undefined, { log: 'auto' as const }]) {
      const error = await rejection(client().getObject('oak-chair', '1.0.0', options));
      expect(error).toBeInstanceOf(LogError);
      expect((error as Error).message).toBe('log check failed: oak-chair@1.0.0 carries no log proof');
    }
    // Skipping the log is a choice the caller makes, and says so.
    expect((await client().getObject('oak-chair', '1.0.0', { log: 'skip' })).manifest.name).toBe('Forged chair');
  });
});

describe('a checkpoint signed by the pinned key for another origin', () => {
  const otherOrigin = 'mirror.example.net';
  const otherNote = () => checkpointNote({ ...site.checkpoint, origin: otherOrigin }, site.key);
  const refusal = () => `the checkpoint's origin is "${otherOrigin}", but the log key ${site.key.name}+${site.key.keyId} that signed it is for the origin "${site.key.name}"`;

  it('is refused by getObject and verifyConsistency, and as the checkpoint a client starts from', async () => {
    mirror({ '/checkpoint': otherNote() });
    const error = await rejection(client().getObject('oak-chair', '1.0.0'));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toBe(`log check failed: ${refusal()}`);
    const consistency = await rejection(client().verifyConsistency(await site.read('/checkpoint').then(String)));
    expect((consistency as Error).message).toBe(`log check failed: ${refusal()}`);
    server.setOverride(undefined);
    const older = await rejection(client().verifyConsistency(otherNote()));
    expect(older).toBeInstanceOf(LogError);
    expect((older as Error).message).toBe(`log check failed: ${refusal()}`);
    // The signature is checked before the first call: every call of that client is refused.
    const started = createClient({ origin: server.origin, logKey: site.key.text, checkpoint: otherNote() });
    for (const call of [started.listObjects(), started.getObject('oak-chair', '1.0.0')]) await expect(call).rejects.toThrow(new TypeError(`createClient: checkpoint: ${refusal()}`));
    expect(started.checkpoint()).toBeNull();
  });
});

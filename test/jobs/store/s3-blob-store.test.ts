import { randomBytes } from 'node:crypto';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Objects } from '../../../src/io/s3-objects.ts';
import { S3BlobStore } from '../../../src/jobs/store/s3-blob-store.ts';
import { startS3Server, type S3Server } from '../../support/s3-server.ts';
import { tempDir } from '../helpers.ts';

describe('S3BlobStore on an S3 protocol server', () => {
  let server: S3Server;
  let staging: Awaited<ReturnType<typeof tempDir>>;
  let store: S3BlobStore;
  let bucket: S3Objects;
  beforeAll(async () => {
    server = await startS3Server();
    staging = await tempDir('aso-s3-staging-');
    store = await S3BlobStore.open({ url: `s3://${server.bucket}/jobs/blobs`, env: server.env, stagingDir: staging.path });
    bucket = new S3Objects(`s3://${server.bucket}`, server.env);
  });
  afterAll(async () => {
    store.close();
    bucket.close();
    await server.close();
    await staging.remove();
  });

  it('keeps bytes under <prefix>/<name>: get, size and stream give them back, delete removes them', async () => {
    await store.put('job-1.input', Uint8Array.from([1, 2, 3]));
    expect(await store.get('job-1.input')).toEqual(Uint8Array.from([1, 2, 3]));
    expect(await store.size('job-1.input')).toBe(3);
    expect(new Uint8Array(await buffer((await bucket.read('jobs/blobs/job-1.input'))!))).toEqual(Uint8Array.from([1, 2, 3]));
    await store.put('job-1.glb', new TextEncoder().encode('glTF asset'));
    expect(await text(await store.stream('job-1.glb'))).toBe('glTF asset');
    await store.put('job-1.input', Uint8Array.from([9]));
    expect(await store.get('job-1.input')).toEqual(Uint8Array.from([9]));
    await store.delete('job-1.input');
    await store.delete('job-1.input');
    expect(await store.get('job-1.input')).toBeUndefined();
    expect(await store.size('job-1.input')).toBeUndefined();
    await expect(store.stream('job-1.input')).rejects.toThrow(`the blob s3://${server.bucket}/jobs/blobs/job-1.input is missing`);
  });

  it('refuses a name that is not one plain file name', async () => {
    for (const name of ['../escape', 'a/b', '.hidden', '', 'name with space']) {
      await expect(store.put(name, Uint8Array.from([1])), name).rejects.toThrow(`blob name "${name}" is not a safe file name`);
      await expect(store.get(name)).rejects.toThrow('is not a safe file name');
    }
  });

  it('uploads a staged file in the staging folder under a name and removes it; refuses a file from elsewhere', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const staged = store.temporaryPath();
    expect(staged.startsWith(join(staging.path, '.'))).toBe(true);
    await writeFile(staged, bytes);
    await store.putFile('job-2.input', staged);
    expect(Buffer.from((await store.get('job-2.input'))!).equals(bytes)).toBe(true);
    expect(await store.size('job-2.input')).toBe(bytes.length);
    expect(await readdir(staging.path)).toEqual([]);
    const outside = join(staging.path, '..', `outside-${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(outside, 'x');
    await expect(store.putFile('job-3.input', outside)).rejects.toThrow(`blob file ${outside} is not a temporary file of the staging folder ${staging.path}`);
    await expect(store.putFile('../job-3.input', store.temporaryPath())).rejects.toThrow('blob name "../job-3.input" is not a safe file name');
    expect(await store.size('job-3.input')).toBeUndefined();
  });

  it('removes staged uploads older than an hour when it opens, and keeps newer ones another process may be sending', async () => {
    const other = await tempDir('aso-s3-staging-');
    try {
      const old = join(other.path, '.upload-0123456789abcdef.tmp');
      const fresh = join(other.path, '.upload-fedcba9876543210.tmp');
      await writeFile(old, 'half an upload');
      await writeFile(fresh, 'an upload on its way');
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      await utimes(old, twoHoursAgo, twoHoursAgo);
      const reopened = await S3BlobStore.open({ url: `s3://${server.bucket}/jobs/blobs`, env: server.env, stagingDir: other.path });
      reopened.close();
      expect(await readdir(other.path)).toEqual(['.upload-fedcba9876543210.tmp']);
    } finally {
      await other.remove();
    }
  });

  it('check() probes the bucket and leaves nothing behind', async () => {
    await store.check();
    const listed = await readdir(join(server.directory, server.bucket), { recursive: true });
    expect(listed.filter((path) => path.includes('.probe-'))).toEqual([]);
  });

  it('does not open when the bucket cannot be written, naming the store, the request and the answer', async () => {
    await expect(S3BlobStore.open({ url: 's3://no-such-bucket/jobs', env: server.env, stagingDir: staging.path })).rejects.toThrow(
      /^the blob store s3:\/\/no-such-bucket\/jobs cannot be written: PUT s3:\/\/no-such-bucket\/jobs\/\.probe-[0-9a-f]{12} failed \(HTTP 404 NoSuchBucket\)/,
    );
    const wrongKey = { ...server.env, AWS_ACCESS_KEY_ID: 'NOT-A-KEY' };
    await expect(S3BlobStore.open({ url: `s3://${server.bucket}/jobs`, env: wrongKey, stagingDir: staging.path })).rejects.toThrow(
      new RegExp(`^the blob store s3://${server.bucket}/jobs cannot be written: PUT .* failed \\(HTTP 403 InvalidAccessKeyId\\)`),
    );
    await expect(S3BlobStore.open({ url: 'https://example.com/x', env: server.env, stagingDir: staging.path, source: '--blob-store' })).rejects.toThrow(
      '--blob-store must be s3://<bucket>/<prefix>, got "https://example.com/x"',
    );
  });
});

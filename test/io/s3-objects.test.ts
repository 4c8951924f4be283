import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseS3Location } from '../../src/io/s3-location.ts';
import { S3Objects } from '../../src/io/s3-objects.ts';
import { startS3Server, type S3Server } from '../support/s3-server.ts';

async function text(stream: Readable | undefined): Promise<string | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('parseS3Location', () => {
  it('reads the bucket and the prefix', () => {
    expect(parseS3Location('s3://my-bucket/a/b/', 'ASO_BLOB_STORE')).toEqual({ bucket: 'my-bucket', prefix: 'a/b' });
    expect(parseS3Location('s3://my-bucket', 'ASO_BLOB_STORE')).toEqual({ bucket: 'my-bucket', prefix: '' });
  });
  it('names the source and what is wrong', () => {
    expect(() => parseS3Location('https://x/y', 'ASO_BLOB_STORE')).toThrow(/ASO_BLOB_STORE must be s3:\/\/<bucket>\/<prefix>/);
    expect(() => parseS3Location('s3://UPPER/x', '--blob-store')).toThrow(/--blob-store: "UPPER" is not an S3 bucket name/);
    expect(() => parseS3Location('s3://bucket/a//b', 'ASO_BLOB_STORE')).toThrow(/empty, "\." or "\.\." segment/);
    expect(() => parseS3Location('s3://bucket/a/../b', 'ASO_BLOB_STORE')).toThrow(/segment/);
  });
});

describe('S3Objects on an S3 protocol server', () => {
  let server: S3Server;
  let objects: S3Objects;
  beforeAll(async () => {
    server = await startS3Server();
    objects = new S3Objects(`s3://${server.bucket}/blobs`, server.env);
  });
  afterAll(async () => {
    objects.close();
    await server.close();
  });

  it('writes, sizes, reads and deletes objects under the prefix', async () => {
    const bytes = Buffer.from('hello, store');
    expect(await objects.size('a')).toBeUndefined();
    expect(await objects.read('a')).toBeUndefined();
    await objects.write('a', bytes, createHash('sha256').update(bytes).digest('base64'));
    expect(await objects.size('a')).toBe(bytes.length);
    expect(await text(await objects.read('a'))).toBe('hello, store');
    await objects.write('b', { stream: Readable.from([Buffer.from('streamed '), Buffer.from('bytes')]), length: 14 });
    expect(await text(await objects.read('b'))).toBe('streamed bytes');
    expect(objects.url('b')).toBe(`s3://${server.bucket}/blobs/b`);
    await objects.delete('a');
    expect(await objects.size('a')).toBeUndefined();
  });

  it('names the object when the store refuses a request', async () => {
    const wrong = new S3Objects('s3://no-such-bucket/x', server.env);
    try {
      await expect(wrong.write('c', Buffer.from('x'))).rejects.toThrow(/PUT s3:\/\/no-such-bucket\/x\/c failed \(HTTP 404 NoSuchBucket\)/);
    } finally {
      wrong.close();
    }
  });
});

/** An S3 protocol server (s3rver) on 127.0.0.1 with one bucket, and the AWS variables that reach it. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3Server {
  bucket: string;
  /** The AWS variables a client needs (endpoint, credentials, region). */
  env: Record<string, string>;
  /** Where s3rver keeps an object's bytes on disk, for tests that tamper with them. */
  directory: string;
  close(): Promise<void>;
}

/** Starts s3rver on a free loopback port with `bucket` created. */
export async function startS3Server(bucket = 'registry-blobs'): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'aso-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    bucket,
    directory,
    env: {
      AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

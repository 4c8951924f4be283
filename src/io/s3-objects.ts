/** Objects in an S3-compatible store under one prefix, with credentials and endpoint from the standard AWS variables. */
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { parseS3Location, s3Key, s3Url, type S3Location } from './s3-location.ts';

/** The environment variables the client reads (the AWS SDK's own names). */
export type S3Env = Record<string, string | undefined>;

/** What to write: bytes in memory, or a stream of exactly `length` bytes. */
export type S3Body = Uint8Array | { stream: Readable; length: number };

function notFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
}

/** Why a request failed, with the object's URL, as the errors this module throws say it. */
function failed(what: string, url: string, error: unknown): Error {
  const status = error instanceof S3ServiceException ? ` (HTTP ${error.$metadata.httpStatusCode ?? '?'} ${error.name})` : '';
  return new Error(`${what} ${url} failed${status}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** Builds the client: a custom endpoint (an S3-compatible store) is addressed path-style. */
function client(env: S3Env): S3Client {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const id = env.AWS_ACCESS_KEY_ID;
  const secret = env.AWS_SECRET_ACCESS_KEY;
  return new S3Client({
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    // Explicit variables win; without them the SDK's own chain (profiles, instance roles) applies.
    ...(id && secret ? { credentials: { accessKeyId: id, secretAccessKey: secret, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } } : {}),
    // Only the checksums a request needs: S3-compatible stores differ in the optional ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The objects under `s3://<bucket>/<prefix>`, named relative to the prefix. */
export class S3Objects {
  readonly location: S3Location;
  private readonly s3: S3Client;

  constructor(location: S3Location | string, env: S3Env, source = 'the blob store') {
    this.location = typeof location === 'string' ? parseS3Location(location, source) : location;
    this.s3 = client(env);
  }

  /** `s3://<bucket>/<key>` of `name`. */
  url(name: string): string {
    return s3Url(this.location, name);
  }

  private params(name: string): { Bucket: string; Key: string } {
    return { Bucket: this.location.bucket, Key: s3Key(this.location, name) };
  }

  /** The object's size, or undefined when there is none. */
  async size(name: string): Promise<number | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand(this.params(name)));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw failed('HEAD', this.url(name), error);
    }
  }

  /** A stream of the object's bytes, or undefined when there is none. */
  async read(name: string, signal?: AbortSignal): Promise<Readable | undefined> {
    try {
      const got = await this.s3.send(new GetObjectCommand(this.params(name)), signal ? { abortSignal: signal } : {});
      if (!(got.Body instanceof Readable)) throw new Error('the response has no body stream');
      return got.Body;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw failed('GET', this.url(name), error);
    }
  }

  /** Writes the object; `sha256` (base64), when given, makes the store refuse bytes that do not match it. */
  async write(name: string, body: S3Body, sha256?: string): Promise<void> {
    const content = body instanceof Uint8Array ? { Body: body, ContentLength: body.byteLength } : { Body: body.stream, ContentLength: body.length };
    try {
      await this.s3.send(new PutObjectCommand({ ...this.params(name), ...content, ...(sha256 ? { ChecksumSHA256: sha256 } : {}) }));
    } catch (error) {
      throw failed('PUT', this.url(name), error);
    }
  }

  async delete(name: string): Promise<void> {
    try {
      await this.s3.send(new DeleteObjectCommand(this.params(name)));
    } catch (error) {
      if (!notFound(error)) throw failed('DELETE', this.url(name), error);
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.s3.destroy();
  }
}

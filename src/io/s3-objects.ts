/** Objects in an S3-compatible store under one prefix, with credentials and endpoint from the standard AWS variables. */
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { parseS3Location, s3Key, s3Url, type S3Location } from './s3-location.ts';

/** The environment variables the client reads (the AWS SDK's own names). */
export type S3Env = Record<string, string | undefined>;

/** What to write: bytes in memory, or a stream of exactly `length` bytes. */
export type S3Body = Uint8Array | { stream: Readable; length: number };

/** The AWS SDK, loaded on the first request: every command that may use a store would otherwise load it at start. */
type Sdk = typeof import('@aws-sdk/client-s3');
let loading: Promise<Sdk> | undefined;
const sdk = (): Promise<Sdk> => (loading ??= import('@aws-sdk/client-s3'));

/** An error the store answered with (the SDK's service exceptions carry `$fault`), as opposed to a network error. */
function answered(error: unknown): error is Error & { $metadata?: { httpStatusCode?: number } } {
  return error instanceof Error && (error as { $fault?: unknown }).$fault !== undefined;
}

function notFound(error: unknown): boolean {
  return answered(error) && (error.$metadata?.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');
}

/** Why a request failed, with the object's URL, as the errors this module throws say it. */
function failed(what: string, url: string, error: unknown): Error {
  const status = answered(error) ? ` (HTTP ${error.$metadata?.httpStatusCode ?? '?'} ${error.name})` : '';
  return new Error(`${what} ${url} failed${status}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** Builds the client: a custom endpoint (an S3-compatible store) is addressed path-style. */
function client({ S3Client }: Sdk, env: S3Env): S3Client {
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
  private readonly env: S3Env;
  private s3: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(location: S3Location | string, env: S3Env, source = 'the blob store') {
    this.location = typeof location === 'string' ? parseS3Location(location, source) : location;
    this.env = env;
  }

  /** The SDK and the client, made on the first request. */
  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    return (this.s3 ??= sdk().then((loaded) => ({ sdk: loaded, client: client(loaded, this.env) })));
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
    const { sdk, client } = await this.connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand(this.params(name)));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw failed('HEAD', this.url(name), error);
    }
  }

  /** A stream of the object's bytes, or undefined when there is none. */
  async read(name: string, signal?: AbortSignal): Promise<Readable | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const got = await client.send(new sdk.GetObjectCommand(this.params(name)), signal ? { abortSignal: signal } : {});
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
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.PutObjectCommand({ ...this.params(name), ...content, ...(sha256 ? { ChecksumSHA256: sha256 } : {}) }));
    } catch (error) {
      throw failed('PUT', this.url(name), error);
    }
  }

  async delete(name: string): Promise<void> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.DeleteObjectCommand(this.params(name)));
    } catch (error) {
      if (!notFound(error)) throw failed('DELETE', this.url(name), error);
    }
  }

  /** Closes the client's connections (none were opened before the first request). */
  close(): void {
    void this.s3?.then(({ client }) => client.destroy(), () => {});
  }
}

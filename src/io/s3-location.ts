/** Where blobs live in an S3-compatible store: `s3://<bucket>/<prefix>`, as `ASO_BLOB_STORE` or `--blob-store` names it. */

/** A bucket and a key prefix (no leading or trailing slash; empty for the bucket's top). */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/** S3's bucket naming rules: 3-63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Parses `s3://<bucket>/<prefix>`; `source` names where the value came from, for the error. */
export function parseS3Location(value: string, source: string): S3Location {
  const match = /^s3:\/\/([^/]*)\/?(.*)$/.exec(value.trim());
  if (!match) throw new Error(`${source} must be s3://<bucket>/<prefix>, got "${value}"`);
  const bucket = match[1]!;
  if (!BUCKET.test(bucket)) throw new Error(`${source}: "${bucket}" is not an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)`);
  const prefix = match[2]!.replace(/\/+$/, '');
  if (prefix && prefix.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`${source}: the prefix "${match[2]}" has an empty, "." or ".." segment`);
  }
  return { bucket, prefix };
}

/** The object key of `name` under the location's prefix. */
export function s3Key(location: S3Location, name: string): string {
  return location.prefix ? `${location.prefix}/${name}` : name;
}

/** `s3://<bucket>/<key>`, as messages name an object. */
export function s3Url(location: S3Location, name: string): string {
  return `s3://${location.bucket}/${s3Key(location, name)}`;
}

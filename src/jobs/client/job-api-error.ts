/** Errors of the job API client: each says what happened and what a person can do about it. */

/** What kind of failure, so callers can decide to retry, resume or give up. */
export type JobApiErrorKind =
  /** The API answered with an error status (4xx, or 5xx after every retry). */
  | 'http'
  /** The API could not be reached (after every retry). */
  | 'network'
  /** The API answered something that is not the documented JSON (after every retry). */
  | 'garbage'
  /** The asset's bytes disagree with what the API declared. */
  | 'integrity'
  /** Waiting took longer than allowed. */
  | 'timeout'
  /** The caller aborted (Ctrl-C). */
  | 'aborted';

/** A failed call to the job API. */
export class JobApiError extends Error {
  constructor(
    readonly kind: JobApiErrorKind,
    message: string,
    /** The HTTP status, when there was a response. */
    readonly status?: number,
    /** The API's error code (`{ error: { code } }`), when it sent one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'JobApiError';
  }
}

/** The message for a 401, with what to do about it. */
export function unauthorizedMessage(apiMessage: string): string {
  return (
    `the job API refused the API key (401: ${apiMessage}); ` +
    'set ASO_API_KEY to a valid key for this API (for the reference service: npm run jobs -- keys create --name <you>), ' +
    'or leave ASO_API_URL and --api unset to use the built-in service'
  );
}

/** A short, printable excerpt of an unexpected body, for error messages. */
export function bodyExcerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}...` : flat || '(empty body)';
}

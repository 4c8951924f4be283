/** The errors the SDK throws: a caller tells them apart with `instanceof` or by `code`. */

/** What kind of failure an {@link AsoSdkError} is. */
export type AsoSdkErrorCode = 'not_found' | 'network' | 'invalid_response' | 'integrity' | 'ledger' | 'log';

/** The base of every error the SDK throws about the registry (bad arguments throw a plain `TypeError`). */
export class AsoSdkError extends Error {
  readonly code: AsoSdkErrorCode;
  /** The URL the SDK was reading when it failed. */
  readonly url: string;

  constructor(code: AsoSdkErrorCode, url: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AsoSdkError';
    this.code = code;
    this.url = url;
  }
}

/** The registry has no such object or version (an HTTP 404 or 410, or no published version matches). */
export class NotFoundError extends AsoSdkError {
  constructor(url: string, message: string) {
    super('not_found', url, message);
    this.name = 'NotFoundError';
  }
}

/** The request failed: no response at all (`status` is null) or an HTTP error status other than not found. */
export class NetworkError extends AsoSdkError {
  readonly status: number | null;

  constructor(url: string, status: number | null, message: string, options?: { cause?: unknown }) {
    super('network', url, message, options);
    this.name = 'NetworkError';
    this.status = status;
  }
}

/** The response is not JSON, or not the documented shape; `pointer` is the JSON pointer of the wrong field. */
export class InvalidResponseError extends AsoSdkError {
  readonly pointer: string;

  constructor(url: string, pointer: string, problem: string, options?: { cause?: unknown }) {
    super('invalid_response', url, `invalid response from ${url}: ${pointer || '(document)'} ${problem}`, options);
    this.name = 'InvalidResponseError';
    this.pointer = pointer;
  }
}

/** What was declared about some bytes, or what they turned out to be. */
export interface IntegrityFacts {
  hash: string;
  byteLength?: number;
}

/**
 * Bytes that do not match what was declared for them (a manifest whose SRI is not the publication's record hash), or a
 * document that declares other files than the verified manifest does; `reason`, when given, says how they differ.
 */
export class IntegrityError extends AsoSdkError {
  readonly expected: IntegrityFacts;
  readonly actual: IntegrityFacts;

  constructor(url: string, what: string, expected: IntegrityFacts, actual: IntegrityFacts, reason?: string) {
    super('integrity', url, `integrity failure: ${what} ${url}: ${reason ?? `expected ${describe(expected)}, got ${describe(actual)}`}`);
    this.name = 'IntegrityError';
    this.expected = expected;
    this.actual = actual;
  }
}

function describe(facts: IntegrityFacts): string {
  return facts.byteLength === undefined ? facts.hash : `${facts.byteLength} bytes ${facts.hash}`;
}

/** The published ledger does not vouch for a version: broken chain, checkpoint mismatch, or no line with its record hash. */
export class LedgerError extends AsoSdkError {
  constructor(url: string, message: string) {
    super('ledger', url, `ledger check failed: ${message}`);
    this.name = 'LedgerError';
  }
}

/**
 * The transparency log does not vouch for what the registry serves: a checkpoint not signed by the pinned key, an
 * inclusion proof that fails, a publisher signature that does not verify, or a checkpoint that does not extend one
 * seen before.
 */
export class LogError extends AsoSdkError {
  /** What failed, without the `log check failed: ` the message begins with. */
  readonly problem: string;

  constructor(url: string, problem: string) {
    super('log', url, `log check failed: ${problem}`);
    this.name = 'LogError';
    this.problem = problem;
  }
}

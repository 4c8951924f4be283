/** A failed HTTP attempt that another attempt may fix: the clients' retry loops catch it and wait before the next. */
export class Retryable extends Error {
  constructor(
    readonly kind: 'http' | 'network' | 'garbage',
    message: string,
    /** How long the server asked to wait (`Retry-After`), in milliseconds. */
    readonly waitMs?: number,
    readonly status?: number,
    /** The API's error code, when it sent one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Bounds the uploads read at once, per API key and in all, so that uploads cannot take every socket, file and byte of disk. */
import { ApiError } from './api-error.ts';
import type { UploadLimits } from './options.ts';

/** How long a refused upload is told to wait, in seconds: an upload in progress takes a few. */
const RETRY_AFTER_SECONDS = 5;

/** The uploads in progress, counted per key. */
export class UploadSlots {
  private readonly perKey = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: UploadLimits) {}

  /** Uploads being read now. */
  get inProgress(): number {
    return this.total;
  }

  /** Takes a slot for `key` and returns its release (call it once); throws 429 or 503 with Retry-After when none is free. */
  acquire(key: string): () => void {
    const { maxUploads, maxUploadsPerKey } = this.limits;
    const mine = this.perKey.get(key) ?? 0;
    const retry = { 'retry-after': String(RETRY_AFTER_SECONDS) };
    if (mine >= maxUploadsPerKey) {
      throw new ApiError(429, 'too_many_uploads', `this API key has ${mine} uploads in progress, the most it may have at once; retry when one has finished`, retry);
    }
    if (this.total >= maxUploads) {
      throw new ApiError(503, 'service_busy', `the service is reading ${this.total} uploads, the most it reads at once; retry in a few seconds`, retry);
    }
    this.perKey.set(key, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left > 0) this.perKey.set(key, left);
      else this.perKey.delete(key);
    };
  }
}

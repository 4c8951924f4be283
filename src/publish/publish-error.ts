/** The one error a publish ends with: a message for a person, and whether `--resume` can pick the job up again. */

/** A publish that stopped. `registry/` is as it was before the publish started. */
export class PublishError extends Error {
  constructor(
    message: string,
    /** The job to resume with `--resume <id>` when its state file was kept. */
    readonly resumeJobId?: string,
    /** 2 for a mistake on the command line, 130 for an interruption, 1 otherwise. */
    readonly exitCode: 1 | 2 | 130 = 1,
  ) {
    super(message);
    this.name = 'PublishError';
  }
}

/** A mistake on the command line (exit code 2). */
export function usageError(message: string): PublishError {
  return new PublishError(message, undefined, 2);
}

/** The job's asset, or the version made from it, fails a check: submitting the same job again will not help. */
export class AssetRejected extends PublishError {
  constructor(message: string) {
    super(message);
    this.name = 'AssetRejected';
  }
}

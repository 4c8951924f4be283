/**
 * The words of a record page's verification badge. The page is static: it says what the build verified, and the badge
 * says only what this browser has itself confirmed since, from the states the viewer (`data-viewer-state`) and the log
 * check (`data-log-state`) publish. Pure.
 */

/** The badge's state, the value of its `data-verification-state`. */
export type VerificationState = 'checking' | 'verified' | 'failed' | 'unchecked';

/** What the badge shows. */
export interface VerificationView {
  state: VerificationState;
  label: string;
}

/** What the browser has found so far; undefined for a check the page does not run. */
export interface VerificationInput {
  /** The viewer's `data-viewer-state`: idle, fetching, verifying, loaded, failed or unsupported. */
  viewer?: string | undefined;
  /** The viewer's `data-viewer-reason` when it failed. */
  reason?: string | undefined;
  /** The log row's `data-log-state`: idle, checking, verified, unsigned or failed. */
  log?: string | undefined;
}

/** The label before anything is confirmed, also what the static page says. */
export const CHECKING_LABEL = 'Checking…';

/** Which check of the bytes failed, by the viewer's reason. */
const FAILURES: Record<string, string> = {
  hash: 'SHA-256 does not match',
  'byte-length': 'byte length does not match',
  validation: 'the glTF does not validate',
  fetch: 'the file could not be fetched',
  crypto: 'the file could not be hashed',
  render: 'the verified file could not be drawn',
};

const PENDING_VIEWER = ['idle', 'fetching', 'verifying'];
const PENDING_LOG = ['idle', 'checking'];

/** The badge for what the browser has confirmed: failed as soon as one check fails, checking while one runs. */
export function verificationView({ viewer, reason, log }: VerificationInput): VerificationView {
  if (viewer === 'failed') return { state: 'failed', label: `Failed: ${FAILURES[reason ?? ''] ?? 'the file did not pass its checks'}` };
  if (log === 'failed') return { state: 'failed', label: 'Failed: the log does not prove this version' };
  const bytes = viewer === 'loaded';
  const logged = log === 'verified' || log === 'unsigned';
  const viewerPending = viewer !== undefined && PENDING_VIEWER.includes(viewer);
  const logPending = log !== undefined && PENDING_LOG.includes(log);
  if (viewerPending || logPending) return { state: 'checking', label: bytes ? 'SHA-256 matches; checking the log…' : CHECKING_LABEL };
  const parts = [...(bytes ? ['SHA-256 matches'] : []), ...(logged ? [log === 'verified' ? 'in the log' : 'in the log (unsigned checkpoint)'] : [])];
  if (parts.length) return { state: 'verified', label: `Verified: ${parts.join(', ')}` };
  return { state: 'unchecked', label: 'Verified when the site was built' };
}

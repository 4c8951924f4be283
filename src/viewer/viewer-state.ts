/** The viewer's states and the words it shows for each (DESIGN §6). Pure: no DOM. */
import { noCompatibleText, type Capabilities } from '@aso-registry/core/format/compatibility';
import { formatBytes } from '@aso-registry/core/documents/format-bytes';
import { formatCount } from '@aso-registry/core/documents/format-count';
import type { Representation } from '@aso-registry/core/format/types';

/** The value of `data-viewer-state` on the viewer's root element. */
type ViewerState = 'idle' | 'fetching' | 'verifying' | 'loaded' | 'failed' | 'unsupported';

/** Which check refused the bytes, the value of `data-viewer-reason` when the state is `failed`. */
export type FailureReason = 'fetch' | 'byte-length' | 'hash' | 'crypto' | 'validation' | 'render';

/** Everything the viewer shows for one moment of an inspection. */
export interface ViewerView {
  state: ViewerState;
  /** The short, bold label: `Idle`, `Fetching`, `Verifying`, `Loaded`, `Failed`, `Unsupported`. */
  label: string;
  /** The sentence beside the label: short once loaded, the whole reason when a check failed. */
  text: string;
  /** Everything that was checked, with the full hash: folded under the status and in its tooltip. */
  detail?: string;
  /** The id of the representation this view is about, if any. */
  representation?: string;
  /** Bytes received of bytes declared, while fetching. */
  progress?: { received: number; total: number };
  /** The mismatch reports, when unsupported. */
  report?: string;
  reason?: FailureReason;
}

type Named = Pick<Representation, 'id' | 'format'>;

const fileName = (rep: Named): string => `${rep.id}.${rep.format}`;

/** Before any inspection. */
export function idleView(): ViewerView {
  return {
    state: 'idle',
    label: 'Idle',
    text: 'Not loaded yet',
    detail: 'A representation is shown only once its byte length, SHA-256 and (for glTF) structure check out.',
  };
}

/** While the bytes arrive: `<file>: 1.2 KB of 5.7 KB`. */
export function fetchingView(rep: Named & Pick<Representation, 'byteLength'>, received: number): ViewerView {
  return {
    state: 'fetching',
    label: 'Fetching',
    text: `${fileName(rep)}: ${formatBytes(received)} of ${formatBytes(rep.byteLength)}`,
    representation: rep.id,
    progress: { received, total: rep.byteLength },
  };
}

/** While a check runs on bytes that are all here; `step` says which one. */
export function verifyingView(rep: Named, step: string): ViewerView {
  return { state: 'verifying', label: 'Verifying', text: `${fileName(rep)}: ${step}`, representation: rep.id };
}

/** While a large file is hashed: `<file>: hashing, 1.2 MB of 5.7 MB (SHA-256)`, with a determinate bar. */
export function hashingView(rep: Named & Pick<Representation, 'byteLength'>, hashed: number): ViewerView {
  return {
    state: 'verifying',
    label: 'Verifying',
    text: `${fileName(rep)}: hashing, ${formatBytes(hashed)} of ${formatBytes(rep.byteLength)} (SHA-256)`,
    representation: rep.id,
    progress: { received: hashed, total: rep.byteLength },
  };
}

/**
 * Shown once every check passed and the runtime presented (and, for an image, decoded) the verified bytes: a short line
 * for people, `Verified · 55.7 KB · SHA-256 matches`, and the detail with the byte count and the full hash.
 */
export function loadedView(rep: Named & Pick<Representation, 'byteLength' | 'hash'>, validated: boolean): ViewerView {
  const checks = `${formatCount(rep.byteLength)} bytes, SHA-256 ${rep.hash} verified`;
  return {
    state: 'loaded',
    label: 'Loaded',
    text: `Verified · ${formatBytes(rep.byteLength)} · SHA-256 matches`,
    detail: `${fileName(rep)}: ${checks}${validated ? '; glTF validated with no errors' : ''}`,
    representation: rep.id,
  };
}

/** Shown when a check refused the bytes: which check, expected and actual. */
export function failedView(rep: Named, reason: FailureReason, detail: string): ViewerView {
  return { state: 'failed', label: 'Failed', text: `${fileName(rep)}: ${detail}`, representation: rep.id, reason };
}

/** The seed's `Preview unavailable` state labelled `Unsupported`, with the reports verbatim. */
export function unsupportedView(reps: ReadonlyArray<Capabilities & Pick<Representation, 'id'>>): ViewerView {
  const only = reps.length === 1 ? reps[0] : undefined;
  return {
    state: 'unsupported',
    label: 'Unsupported',
    text: 'Preview unavailable',
    report: noCompatibleText(reps),
    ...(only ? { representation: only.id } : {}),
  };
}

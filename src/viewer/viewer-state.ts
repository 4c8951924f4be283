/** The viewer's states and the words it shows for each (DESIGN §6). Pure: no DOM. */
import { noCompatibleText, type Capabilities } from '@aso-registry/core/format/compatibility';
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
  /** The sentence beside the label. */
  text: string;
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
  return { state: 'idle', label: 'Idle', text: 'Nothing inspected yet. A representation is shown only once its byte length, SHA-256 and (for glTF) structure check out.' };
}

/** While the bytes arrive: `<file>: 1,234 of 5,678 bytes`. */
export function fetchingView(rep: Named & Pick<Representation, 'byteLength'>, received: number): ViewerView {
  return {
    state: 'fetching',
    label: 'Fetching',
    text: `${fileName(rep)}: ${formatCount(received)} of ${formatCount(rep.byteLength)} bytes`,
    representation: rep.id,
    progress: { received, total: rep.byteLength },
  };
}

/** While a check runs on bytes that are all here; `step` says which one. */
export function verifyingView(rep: Named, step: string): ViewerView {
  return { state: 'verifying', label: 'Verifying', text: `${fileName(rep)}: ${step}`, representation: rep.id };
}

/** While a large file is hashed: `<file>: hashing, 1,234 of 5,678 bytes (SHA-256)`, with a determinate bar. */
export function hashingView(rep: Named & Pick<Representation, 'byteLength'>, hashed: number): ViewerView {
  return {
    state: 'verifying',
    label: 'Verifying',
    text: `${fileName(rep)}: hashing, ${formatCount(hashed)} of ${formatCount(rep.byteLength)} bytes (SHA-256)`,
    representation: rep.id,
    progress: { received: hashed, total: rep.byteLength },
  };
}

/** Shown once every check passed and the runtime presented the verified bytes. */
export function loadedView(rep: Named & Pick<Representation, 'byteLength' | 'hash'>, validated: boolean): ViewerView {
  const checks = `${formatCount(rep.byteLength)} bytes, SHA-256 ${rep.hash} verified`;
  return {
    state: 'loaded',
    label: 'Loaded',
    text: `${fileName(rep)}: ${checks}${validated ? '; glTF validated with no errors' : ''}`,
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

/**
 * The log rows of a record page: they say `Verified`, `Signed by <publisher>` and whether the version is retracted only
 * once the browser has checked them.
 */
import type { LogCheckView, RowView } from './log-check.ts';
import { parseLogConfig } from './log-config.ts';

function show(el: HTMLElement | null, key: 'logState' | 'signatureState' | 'retractionState', row: RowView | { state: 'checking'; text: string }): void {
  if (!el) return;
  const text = el.querySelector<HTMLElement>('.log-text');
  if (text) text.textContent = row.text;
  el.dataset[key] = row.state;
}

/** The viewer's states after which it fetches nothing more. */
const SETTLED = ['loaded', 'failed', 'unsupported'];
/** How long the log check waits at most for the viewer. */
const WAIT_MS = 5000;

/**
 * Resolves once the page's inspection viewer has settled (or at once when there is none, or after a few seconds at
 * most), so that the log check never competes with the model for the network.
 */
export function viewerSettled(doc: Document): Promise<void> {
  const viewer = doc.querySelector<HTMLElement>('[data-viewer]');
  const settled = (): boolean => !viewer || SETTLED.includes(viewer.dataset.viewerState ?? '');
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new MutationObserver(() => settled() && done());
    observer.observe(viewer!, { attributes: true, attributeFilter: ['data-viewer-state'] });
    const timer = setTimeout(done, WAIT_MS);
  });
}

/** Checks one record page's version against the log and shows the outcome. */
export async function startLogStatus(root: HTMLElement): Promise<void> {
  const logRow = root.querySelector<HTMLElement>('[data-log-state]');
  const sigRow = root.querySelector<HTMLElement>('[data-signature-state]');
  const retractionRow = root.querySelector<HTMLElement>('[data-retraction-state]');
  let view: LogCheckView;
  try {
    const config = parseLogConfig(root.querySelector('script.log-config')?.textContent ?? '');
    await viewerSettled(root.ownerDocument);
    show(logRow, 'logState', { state: 'checking', text: 'Checking the inclusion proof against the checkpoint…' });
    if (sigRow?.dataset.signatureState === 'pending') show(sigRow, 'signatureState', { state: 'checking', text: 'Checking the publisher’s signature…' });
    const { checkLog } = await import('./log-check.ts');
    view = await checkLog(config, root.ownerDocument.location.origin);
  } catch (error) {
    const failed: RowView = { state: 'failed', text: `Failed: ${error instanceof Error ? error.message : String(error)}` };
    view = { log: failed, signature: failed, retraction: failed };
  }
  show(logRow, 'logState', view.log);
  show(sigRow, 'signatureState', view.signature);
  show(retractionRow, 'retractionState', view.retraction);
}

/** Starts every log status block on the page. */
export function startLogStatuses(doc: Document = document): void {
  for (const root of doc.querySelectorAll<HTMLElement>('[data-log-status]')) void startLogStatus(root);
}

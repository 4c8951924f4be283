/** Drives the viewer on a record page: records every `data-viewer-state` change and waits for the last one. */
import type { Page } from 'playwright-core';

/** What the viewer ended on, and every state it went through on the way. */
export interface ViewerOutcome {
  state: string;
  label: string;
  text: string;
  /** The folded detail: what was checked, with the full hash. */
  detail: string;
  reason: string | undefined;
  representation: string | undefined;
  report: string | undefined;
  /** Every `data-viewer-state` set after the page was parsed, in order. */
  states: string[];
}

declare global {
  interface Window {
    viewerStates?: string[];
  }
}

/** Installs, before any page script, an observer that records every state the viewer's root takes. */
export async function recordViewerStates(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.viewerStates = [];
    new MutationObserver((records) => {
      for (const r of records) window.viewerStates!.push((r.target as HTMLElement).getAttribute('data-viewer-state') ?? '');
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-viewer-state'] });
  });
}

/**
 * How long a test waits for a mesh to be drawn: the 1 MB model-viewer chunk and WebGL in software are slow on a busy
 * 2-core machine (over half a minute has been seen), however quick they are on an idle one.
 */
export const MESH_WAIT_MS = 180_000;

/** Waits until the viewer is loaded, failed or unsupported, and reads what it shows. */
export async function viewerOutcome(page: Page, timeout = 45_000): Promise<ViewerOutcome> {
  await page.waitForFunction(
    () => ['loaded', 'failed', 'unsupported'].includes(document.querySelector('[data-viewer]')?.getAttribute('data-viewer-state') ?? ''),
    null,
    { timeout },
  );
  return page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('[data-viewer]')!;
    const report = root.querySelector<HTMLElement>('.viewer-report');
    return {
      state: root.dataset.viewerState ?? '',
      label: root.querySelector('.viewer-label')?.textContent ?? '',
      text: root.querySelector('.viewer-text')?.textContent ?? '',
      detail: root.querySelector('.viewer-detail')?.textContent ?? '',
      reason: root.dataset.viewerReason,
      representation: root.dataset.viewerRepresentation,
      report: report && !report.hidden ? (report.textContent ?? '') : undefined,
      states: [...(window.viewerStates ?? [])],
    };
  });
}

/** Consecutive duplicates removed: the sequence of states as a person sees it. */
export function transitions(states: readonly string[]): string[] {
  return states.filter((s, i) => s !== states[i - 1]);
}

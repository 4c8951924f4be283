/** The viewer island's entry: binds each viewer root and every Inspect button, and shows the first presentable representation. */
import { pickPresentable } from '@aso-registry/core/format/compatibility';
import { toOrigin } from '@aso-registry/core/format/paths';
import { fullscreenControl } from './fullscreen-control.ts';
import { inspect } from './inspect.ts';
import { showPoster } from './poster.ts';
import type { Presented } from './presented.ts';
import { verifiedBytes } from './verified-bytes.ts';
import { parseConfig, type ViewerConfig, type ViewerRepresentation } from './viewer-config.ts';
import { unsupportedView, type ViewerView } from './viewer-state.ts';

/** Writes a view into the root: texts first, then `data-viewer-state`, so the state never shows stale words. */
export function render(root: HTMLElement, view: ViewerView): void {
  const part = <T extends Element>(selector: string): T | null => root.querySelector<T>(selector);
  const label = part<HTMLElement>('.viewer-label');
  const text = part<HTMLElement>('.viewer-text');
  const progress = part<HTMLProgressElement>('.viewer-progress');
  const report = part<HTMLElement>('.viewer-report');
  const detail = part<HTMLElement>('.viewer-detail');
  const more = part<HTMLElement>('.viewer-more');
  const line = part<HTMLElement>('.viewer-line');
  if (label) label.textContent = view.label;
  if (text) text.textContent = view.text;
  if (detail) detail.textContent = view.detail ?? '';
  if (line) line.title = view.detail ?? '';
  if (more) more.hidden = view.detail === undefined && view.report === undefined;
  if (progress) {
    progress.hidden = !view.progress;
    if (view.progress) {
      const what = view.state === 'fetching' ? 'Bytes received' : 'Bytes hashed';
      if (progress.getAttribute('aria-label') !== what) progress.setAttribute('aria-label', what);
      progress.max = Math.max(view.progress.total, 1);
      progress.value = view.progress.received;
    }
  }
  if (report) {
    report.hidden = view.report === undefined;
    report.textContent = view.report ?? '';
  }
  setData(root, 'viewerReason', view.reason);
  setData(root, 'viewerRepresentation', view.representation);
  root.setAttribute('aria-busy', String(view.state === 'fetching' || view.state === 'verifying'));
  if (root.dataset.viewerState !== view.state) root.dataset.viewerState = view.state;
}

function setData(el: HTMLElement, key: string, value: string | undefined): void {
  if (value === undefined) delete el.dataset[key];
  else if (el.dataset[key] !== value) el.dataset[key] = value;
}

/** Starts one viewer: the first representation a runtime can load is inspected at once. */
export function startViewer(root: HTMLElement): void {
  fullscreenControl(root);
  let config: ViewerConfig;
  try {
    config = parseConfig(root.querySelector('script.viewer-config')?.textContent ?? '');
  } catch (error) {
    render(root, { state: 'failed', label: 'Failed', text: error instanceof Error ? error.message : String(error) });
    return;
  }
  const stage = root.querySelector<HTMLElement>('.viewer-stage') ?? root;
  const controls = root.querySelector<HTMLElement>('.viewer-bar') ?? undefined;
  const origin = root.ownerDocument.location.origin;
  const verified = verifiedBytes();
  // The preview is the poster once its own bytes have passed the same checks, at once while the representation loads.
  const previewUrl = config.preview && pickPresentable([config.preview])?.runtime === 'browser-image' ? onThisOrigin(config.preview.url, config.registryUrl, origin) : undefined;
  const poster = root.querySelector<HTMLElement>('.viewer-poster');
  if (config.preview && previewUrl && poster) void showPoster(poster, config.preview, verified.load(config.preview, previewUrl));
  let current: { controller: AbortController; presented?: Presented | undefined } | undefined;

  async function run(rep: ViewerRepresentation): Promise<void> {
    current?.controller.abort();
    current?.presented?.dispose();
    stage.replaceChildren();
    const mine: { controller: AbortController; presented?: Presented | undefined } = { controller: new AbortController() };
    current = mine;
    const show = (view: ViewerView): void => {
      if (current === mine) render(root, view);
    };
    try {
      mine.presented = await inspect(rep, { name: config.name, verified, registryUrl: config.registryUrl, origin, decoders: config.decoders, stage, controls, show, signal: mine.controller.signal });
      if (current !== mine) mine.presented?.dispose();
    } catch (error) {
      if (mine.controller.signal.aborted) return;
      show({ state: 'failed', label: 'Failed', text: `${rep.id}.${rep.format}: ${error instanceof Error ? error.message : String(error)}`, representation: rep.id });
    }
  }

  const known = config.preview ? [...config.representations, config.preview] : config.representations;
  for (const button of root.ownerDocument.querySelectorAll<HTMLButtonElement>('button[data-inspect]')) {
    button.addEventListener('click', () => {
      const id = button.dataset.inspect;
      const rep = known.find((r) => r.id === id);
      root.scrollIntoView({ block: 'nearest' });
      if (rep) void run(rep);
      else render(root, { state: 'failed', label: 'Failed', text: `representation "${id}" is not described to the viewer`, ...(id ? { representation: id } : {}) });
    });
  }

  const pick = pickPresentable(config.representations);
  if (pick) void run(pick.rep);
  else render(root, unsupportedView(config.representations));
}

/** The viewer roots started on this page. */
const started = new WeakSet<HTMLElement>();

/** Starts every viewer on the page that has not started yet: a page that adds viewers later calls it again. */
export function startViewers(doc: Document = document): void {
  for (const root of doc.querySelectorAll<HTMLElement>('[data-viewer]')) {
    if (started.has(root)) continue;
    started.add(root);
    startViewer(root);
  }
}

function onThisOrigin(url: string, registryUrl: string, origin: string): string | undefined {
  try {
    return toOrigin(url, registryUrl, origin);
  } catch {
    return undefined;
  }
}

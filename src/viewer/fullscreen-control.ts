/** The full-screen button of a viewer: the stage's box goes full screen (Fullscreen API) and back. */

/** The button's words for a state: what pressing it does. */
const WORDS = { enter: 'Full screen', exit: 'Exit full screen' };

/**
 * Binds the root's `.viewer-fullscreen` button to its `.viewer-box`, and shows the button only where the browser lets
 * an element go full screen (not on an iPhone, for one).
 */
export function fullscreenControl(root: HTMLElement): void {
  const doc = root.ownerDocument;
  const button = root.querySelector<HTMLButtonElement>('.viewer-fullscreen');
  const box = root.querySelector<HTMLElement>('.viewer-box');
  if (!button || !box || !doc.fullscreenEnabled) return;
  const sync = (): void => {
    const on = doc.fullscreenElement === box;
    const words = on ? WORDS.exit : WORDS.enter;
    button.setAttribute('aria-label', words);
    button.title = words;
    button.dataset.active = String(on);
  };
  button.addEventListener('click', () => {
    if (doc.fullscreenElement === box) void doc.exitFullscreen();
    else void box.requestFullscreen().catch(() => undefined);
  });
  doc.addEventListener('fullscreenchange', sync);
  sync();
  button.hidden = false;
}

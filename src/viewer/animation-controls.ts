/** The animation controls of a 3D view: the names of the model's animations, which one plays, and a pause/play button. */

/** The parts of `<model-viewer>` the controls use. */
export interface AnimatedViewer extends HTMLElement {
  readonly availableAnimations: string[];
  animationName: string | undefined;
  readonly paused: boolean;
  play(options?: { repetitions?: number }): void;
  pause(): void;
}

/** The button's words for a state: what pressing it does. */
function toggleText(paused: boolean): { text: string; label: string } {
  return paused ? { text: 'Play', label: 'Play animation' } : { text: 'Pause', label: 'Pause animation' };
}

/** `1 animation: Walk` or `3 animations: Walk, Run, Idle`. */
function animationNamesText(names: readonly string[]): string {
  return `${names.length} animation${names.length === 1 ? '' : 's'}: ${names.join(', ')}`;
}

/**
 * Selects the model's first animation and plays it (or leaves it paused when the reader prefers reduced motion), and
 * returns the controls: the names, a choice of animation, and a native button that pauses and plays (Enter or Space).
 * Returns null when the model has no animation.
 */
export function animationControls(viewer: AnimatedViewer, options: { reducedMotion: boolean }): HTMLElement | null {
  const names = viewer.availableAnimations;
  if (names.length === 0) return null;
  const doc = viewer.ownerDocument;
  const box = doc.createElement('div');
  box.className = 'viewer-animation';

  const list = doc.createElement('p');
  list.className = 'viewer-animation-names';
  list.textContent = animationNamesText(names);

  const label = doc.createElement('label');
  label.textContent = 'Animation ';
  const select = doc.createElement('select');
  select.className = 'viewer-animation-select';
  for (const name of names) {
    const option = doc.createElement('option');
    option.value = name;
    option.textContent = name;
    select.append(option);
  }
  label.append(select);

  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'viewer-animation-toggle';
  const sync = (): void => {
    const words = toggleText(viewer.paused);
    button.textContent = words.text;
    button.setAttribute('aria-label', words.label);
    box.dataset.animationState = viewer.paused ? 'paused' : 'playing';
  };
  button.addEventListener('click', () => {
    if (viewer.paused) viewer.play();
    else viewer.pause();
    sync();
  });
  select.addEventListener('change', () => {
    const playing = !viewer.paused;
    viewer.animationName = select.value;
    if (playing) viewer.play();
    sync();
  });
  viewer.addEventListener('play', sync);
  viewer.addEventListener('pause', sync);

  viewer.animationName = names[0];
  if (options.reducedMotion) viewer.pause();
  else viewer.play();
  sync();
  box.append(list, label, ' ', button);
  return box;
}

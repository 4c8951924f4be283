/**
 * The controls of a loaded 3D view, over the stage's lower edge: auto-rotate, lighting (exposure), the inspection modes
 * (wireframe, textures), AR when the device can show the verified scene in AR, and the animation controls. Loaded with
 * model-viewer, so a page that shows no mesh never downloads them.
 */
import { animationControls, type AnimatedViewer } from './animation-controls.ts';
import { inspectionModes } from './inspection-modes.ts';

/** The parts of `<model-viewer>` the controls use. */
export interface ControlledViewer extends AnimatedViewer {
  autoRotate: boolean;
  exposure: number;
  readonly canActivateAR: boolean;
  activateAR(): Promise<void>;
}

/** Exposure's range: model-viewer's default is 1. */
const EXPOSURE = { min: 0.25, max: 2, step: 0.05, initial: 1 };

const ICONS = {
  rotate: '<path d="M20 12a8 8 0 1 1-2.3-5.7"/><path d="M20 4v4h-4"/>',
  light: '<circle cx="12" cy="12" r="4"/><path d="M12 2v2m0 16v2M4.9 4.9l1.4 1.4m11.4 11.4 1.4 1.4M2 12h2m16 0h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/>',
  wireframe: '<path d="M12 3 3 8v8l9 5 9-5V8z"/><path d="m3 8 9 5 9-5m-9 5v8"/>',
  textures: '<rect x="3" y="4" width="18" height="16" rx="2"/><circle cx="9" cy="10" r="2"/><path d="m21 16-5-5-9 9"/>',
  ar: '<path d="M4 8V4h4m8 0h4v4m0 8v4h-4M8 20H4v-4"/><path d="m12 7-5 2.5v5L12 17l5-2.5v-5z"/>',
};

/** A tool button: an icon, its name (the accessible name and the tooltip), and a pressed state for toggles. */
function toolButton(doc: Document, name: string, icon: keyof typeof ICONS, pressed?: boolean): HTMLButtonElement {
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'viewer-tool';
  button.setAttribute('aria-label', name);
  button.title = name;
  if (pressed !== undefined) button.setAttribute('aria-pressed', String(pressed));
  // A constant of this file, never text from a manifest.
  button.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[icon]}</svg>`;
  return button;
}

/** A toggle: flips `aria-pressed` on each press and tells `apply` the new state. */
function toggle(button: HTMLButtonElement, apply: (on: boolean) => void): void {
  button.addEventListener('click', () => {
    const on = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(on));
    apply(on);
  });
}

/** The lighting button and its panel: an exposure slider; Escape closes it and gives the focus back. */
function lightingControl(doc: Document, viewer: ControlledViewer): HTMLElement {
  const wrap = doc.createElement('div');
  wrap.className = 'viewer-popover';
  const button = toolButton(doc, 'Lighting', 'light');
  const panel = doc.createElement('div');
  panel.className = 'viewer-panel';
  panel.id = `viewer-lighting-${Math.random().toString(36).slice(2, 10)}`;
  panel.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', panel.id);

  const label = doc.createElement('label');
  label.className = 'viewer-exposure';
  const name = doc.createElement('span');
  name.textContent = 'Exposure';
  const slider = doc.createElement('input');
  slider.type = 'range';
  slider.min = String(EXPOSURE.min);
  slider.max = String(EXPOSURE.max);
  slider.step = String(EXPOSURE.step);
  slider.value = String(EXPOSURE.initial);
  const value = doc.createElement('output');
  const show = (): void => {
    value.textContent = Number(slider.value).toFixed(2);
  };
  slider.addEventListener('input', () => {
    viewer.exposure = Number(slider.value);
    show();
  });
  viewer.exposure = EXPOSURE.initial;
  show();
  label.append(name, slider, value);
  panel.append(label);

  const isOpen = (): boolean => button.getAttribute('aria-expanded') === 'true';
  const open = (on: boolean): void => {
    panel.hidden = !on;
    button.setAttribute('aria-expanded', String(on));
  };
  button.addEventListener('click', () => {
    open(!isOpen());
    if (isOpen()) slider.focus();
  });
  wrap.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    open(false);
    button.focus();
  });
  wrap.append(button, panel);
  return wrap;
}

/**
 * Puts the controls of `viewer` into `bar` (the animation controls first, the tools before what the bar holds already)
 * and returns how to take them out again. Auto-rotate starts as the element has it (off under reduced motion).
 */
export function meshControls(viewer: ControlledViewer, bar: HTMLElement, options: { reducedMotion: boolean }): { remove(): void } {
  const doc = viewer.ownerDocument;
  const tools = doc.createElement('div');
  tools.className = 'viewer-tools viewer-mesh-tools';
  tools.setAttribute('role', 'group');
  tools.setAttribute('aria-label', '3D view');

  const rotate = toolButton(doc, 'Auto-rotate', 'rotate', viewer.autoRotate);
  toggle(rotate, (on) => (viewer.autoRotate = on));

  tools.append(rotate, lightingControl(doc, viewer));
  const modes = inspectionModes(viewer);
  if (modes) {
    const wireframe = toolButton(doc, 'Wireframe', 'wireframe', false);
    toggle(wireframe, (on) => modes.setWireframe(on));
    tools.append(wireframe);
  }
  if (modes?.hasTextures) {
    const textures = toolButton(doc, 'Textures', 'textures', true);
    toggle(textures, (on) => modes.setTextures(on));
    tools.append(textures);
  }

  // Shown only when model-viewer can start AR here in a mode that uses the verified scene (see present-mesh.ts).
  const ar = toolButton(doc, 'View in AR', 'ar');
  const syncAr = (): void => {
    ar.hidden = !viewer.canActivateAR;
  };
  ar.addEventListener('click', () => void viewer.activateAR());
  viewer.addEventListener('ar-status', syncAr);
  syncAr();
  tools.append(ar);

  const animation = animationControls(viewer, options);
  bar.prepend(tools);
  if (animation) bar.prepend(animation);
  return {
    remove() {
      viewer.removeEventListener('ar-status', syncAr);
      tools.remove();
      animation?.remove();
    },
  };
}

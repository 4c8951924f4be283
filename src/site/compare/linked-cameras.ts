/**
 * Two `<model-viewer>` elements whose cameras move together: when a person turns, zooms or pans one, the other takes
 * its orbit, target and field of view. Only a person's moves are copied: the copy's own change (source `none`) is not,
 * so the two never answer each other.
 */

/** What the linking reads and writes of a `<model-viewer>` element. */
interface CameraView extends HTMLElement {
  getCameraOrbit(): { toString(): string };
  getCameraTarget(): { toString(): string };
  getFieldOfView(): number;
  cameraOrbit: string;
  cameraTarget: string;
  fieldOfView: string;
  jumpCameraToGoal(): void;
}

const MODEL_VIEWER = 'model-viewer';

/** Copies the camera of `from` to `to` at once (no easing, so the two show the same view while a person drags). */
function copyCamera(from: CameraView, to: CameraView): void {
  to.cameraOrbit = from.getCameraOrbit().toString();
  to.cameraTarget = from.getCameraTarget().toString();
  to.fieldOfView = `${from.getFieldOfView()}deg`;
  to.jumpCameraToGoal();
}

/**
 * Links the cameras of the model views inside `left` and `right` (each may get its view later, or a new one) while
 * `linked()` says so. A linked view neither turns by itself nor wiggles, so that both keep showing the same side.
 */
export function linkCameras(left: HTMLElement, right: HTMLElement, linked: () => boolean): { sync(): void } {
  let copying = false;
  const viewOf = (side: HTMLElement): CameraView | null => side.querySelector<CameraView>(MODEL_VIEWER);
  const follow = (from: HTMLElement, to: HTMLElement): void => {
    // camera-change does not bubble: it is caught on its way down to the model view.
    from.addEventListener(
      'camera-change',
      (event) => {
        const source = (event as CustomEvent<{ source?: string }>).detail?.source;
        const moved = event.target as CameraView;
        const other = viewOf(to);
        if (copying || !linked() || source !== 'user-interaction' || !other || moved.localName !== MODEL_VIEWER) return;
        copying = true;
        try {
          copyCamera(moved, other);
        } finally {
          copying = false;
        }
      },
      true,
    );
  };
  follow(left, right);
  follow(right, left);
  // Turning by itself, or wiggling to invite a first drag, would move one view away from the other.
  const still = (): void => {
    if (!linked()) return;
    for (const side of [left, right]) {
      const view = viewOf(side);
      if (!view) continue;
      if (view.hasAttribute('auto-rotate')) view.removeAttribute('auto-rotate');
      if (view.getAttribute('interaction-prompt') !== 'none') view.setAttribute('interaction-prompt', 'none');
    }
  };
  const observer = new MutationObserver(still);
  for (const side of [left, right]) observer.observe(side, { childList: true, subtree: true });
  return {
    /** Makes the right view show what the left one shows, and stops both turning by themselves. */
    sync(): void {
      still();
      const from = viewOf(left);
      const to = viewOf(right);
      if (linked() && from && to) copyCamera(from, to);
    },
  };
}

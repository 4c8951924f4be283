/** The phases of one build and what each took, written to `<cacheDir>/build-phases.json` for `npm run bench`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The phases, in the order a build runs them. */
export const PHASES = ['check', 'thumbnails', 'renderer', 'plan', 'pages', 'documents', 'bytes', 'log', 'search', 'sweep'] as const;

/** One phase's name. */
export type Phase = (typeof PHASES)[number];

/** Milliseconds per phase, and what the build wrote. */
export interface BuildPhases {
  ms: Record<Phase, number>;
  /** Files of the site. */
  files: number;
  /** Files this build wrote (the rest were there, unchanged). */
  written: number;
  /** Files of the last build removed. */
  removed: number;
  /** Whether the page renderer was built by this build (the site's code changed, or no build had it). */
  rendererBuilt: boolean;
}

/** Times the phases of a build. */
export class PhaseClock {
  readonly ms = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;

  /** Runs `task` as (part of) `phase`. */
  async time<T>(phase: Phase, task: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await task();
    } finally {
      this.ms[phase] += performance.now() - started;
    }
  }
}

/** Writes the phases of the last build where the bench reads them. */
export async function recordBuildPhases(cacheDir: string, phases: BuildPhases): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  await writeFile(join(cacheDir, 'build-phases.json'), `${JSON.stringify(phases, null, 2)}\n`);
}

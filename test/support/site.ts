/** The sample site built once by the global setup. */
import { inject } from 'vitest';

/** The `dist/` folder of the sample registry's site; throws the build's output when it failed. */
export function siteDir(): string {
  const error = inject('siteBuildError');
  if (error) throw new Error(error);
  return inject('siteDir');
}

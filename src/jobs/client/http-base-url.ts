/** The base URL of an HTTP API as a client is given it: absolute, http or https, without trailing slashes. */
import { JobApiError } from './job-api-error.ts';

/** Parses `value`; `what` names it in the error (`the job API URL`, `the meshy base URL`). */
export function parseHttpBaseUrl(value: string, what: string): { origin: string; path: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new JobApiError('http', `${what} "${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new JobApiError('http', `${what} "${value}" must use http or https`);
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

/**
 * API keys on requests: `identify` finds the key a request carries before anything else runs (so that the rate limit
 * counts a valid key on its own and everything else by address), and `authError` is the 401 for a request without one.
 */
import type { ApiKeyRecord, KeyStore } from '../store/types.ts';
import { ApiError } from './api-error.ts';

const AUTH_HEADERS = { 'www-authenticate': 'Bearer realm="aso-jobs"' };
const BEARER = /^Bearer +(\S+) *$/i;

/** The live key record of an `Authorization` header, or null when there is none, it is malformed, unknown or revoked. */
export async function identify(keys: KeyStore, header: string | undefined): Promise<ApiKeyRecord | null> {
  const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
  return (token && (await keys.authenticate(token))) || null;
}

/** The 401 for a request that `identify` found no key in, saying what was wrong with its header. */
export function authError(header: string | undefined): ApiError {
  if (!header) return new ApiError(401, 'missing_api_key', 'send the header "Authorization: Bearer <API key>"', AUTH_HEADERS);
  if (!BEARER.test(header)) return new ApiError(401, 'invalid_authorization', 'the Authorization header must be "Bearer <API key>"', AUTH_HEADERS);
  return new ApiError(401, 'invalid_api_key', 'the API key is unknown or has been revoked', AUTH_HEADERS);
}

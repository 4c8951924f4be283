/** The origin the registry is published at: `REGISTRY_URL`, else the project default. */
export const DEFAULT_REGISTRY_URL = 'https://registry.example.org';

/** Reads the registry URL from the environment, without a trailing slash. */
export function registryUrl(env: Record<string, string | undefined> = process.env): string {
  const raw = env.REGISTRY_URL?.trim() || DEFAULT_REGISTRY_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`REGISTRY_URL: "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`REGISTRY_URL: "${raw}" must use http or https`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

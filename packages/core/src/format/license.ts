/** What a manifest's `license` string is: an SPDX license identifier (with its URL), a URL, or free text. Pure. */
import spdxIds from 'spdx-license-ids/index.json' with { type: 'json' };

const IDS = new Set<string>(spdxIds as string[]);

/** A license as the site links it. */
export type LicenseRef = { kind: 'spdx'; id: string; url: string } | { kind: 'url'; url: string } | { kind: 'text'; text: string };

/** The SPDX license list page of an identifier. */
function spdxUrl(id: string): string {
  return `https://spdx.org/licenses/${id}.html`;
}

/** Classifies a license string; an SPDX identifier is matched exactly as the list spells it. */
export function licenseRef(license: string): LicenseRef {
  const text = license.trim();
  if (IDS.has(text)) return { kind: 'spdx', id: text, url: spdxUrl(text) };
  if (/^https?:\/\/\S+$/i.test(text)) {
    try {
      return { kind: 'url', url: new URL(text).href };
    } catch {
      // not a URL after all: free text
    }
  }
  return { kind: 'text', text };
}

/** What the compare page tells its island, as JSON in a `<script>` element: the object and its versions, newest first. */
import type { ComparableVersion } from '@aso-registry/core/documents/version-comparison';

export interface CompareConfig {
  id: string;
  versions: ComparableVersion[];
}

/** The JSON text of a config, safe inside a `<script>` element. */
export function serializeCompareConfig(config: CompareConfig): string {
  const versions = config.versions.map(({ version, prerelease, retracted }) => ({ version, prerelease, retracted }));
  return JSON.stringify({ id: config.id, versions }).replace(/</g, '\\u003c');
}

/** Parses and checks the config text; throws an error naming what is wrong. */
export function parseCompareConfig(text: string): CompareConfig {
  let data: Partial<CompareConfig>;
  try {
    data = JSON.parse(text) as Partial<CompareConfig>;
  } catch (error) {
    throw new Error(`compare config: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof data?.id !== 'string') throw new Error('compare config: "id" must be a string');
  const ok = Array.isArray(data.versions) && data.versions.every((v) => typeof v?.version === 'string' && typeof v.prerelease === 'boolean' && typeof v.retracted === 'boolean');
  if (!ok) throw new Error('compare config: "versions" must be an array of {version: string, prerelease: boolean, retracted: boolean}');
  return data as CompareConfig;
}

/** "Latest": the one rule for which version of an object a bare id means. Pure. */
import { compareVersions, isPrerelease } from './version.ts';
import { compileRange } from './version-range.ts';

/** The highest non-prerelease version, else the highest version, else undefined. */
export function latestVersion(versions: readonly string[]): string | undefined {
  const sorted = [...versions].sort(compareVersions).reverse();
  return sorted.find((v) => !isPrerelease(v)) ?? sorted[0];
}

/** The latest version that is not retracted, or the latest of all when every version is retracted. */
export function latestNotRetracted(versions: readonly string[], isRetracted: (version: string) => boolean): string | undefined {
  return latestVersion(versions.filter((v) => !isRetracted(v))) ?? latestVersion(versions);
}

/** The record of an object's latest version (the first, newest, record when the latest is not among them). */
export function latestRecord<V extends { manifest: { version: string } }>(object: { latest: string; versions: readonly V[] }): V {
  return object.versions.find((v) => v.manifest.version === object.latest) ?? object.versions[0]!;
}

/**
 * Resolves `latest`, an exact version, or a SemVer range against the published versions.
 * Returns undefined when nothing matches.
 */
export function resolveVersion(versions: readonly string[], wanted: string): string | undefined {
  if (wanted === 'latest') return latestVersion(versions);
  if (versions.includes(wanted)) return wanted;
  const matches = compileRange(wanted);
  return matches ? versions.filter(matches).sort(compareVersions).at(-1) : undefined;
}

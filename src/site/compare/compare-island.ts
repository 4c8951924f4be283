/**
 * The compare page's island: the pair of versions the query names (`?a=<v>&b=<v>`, else the two newest releases), their
 * API documents read from this site, the facts and metadata side by side with their differences, and a verifying viewer
 * for each, their cameras linked. The page says what it is doing in `data-compare-state` (loading, ready, failed).
 */
import type { ApiVersion } from '@aso-registry/core/documents/api-types';
import { comparePair, compareVersions, type ComparisonRow } from '@aso-registry/core/documents/version-comparison';
import { apiPaths, encodePath, versionPagePath } from '@aso-registry/core/format/paths';
import { startViewers } from '../../viewer/island.ts';
import { parseCompareConfig } from './compare-config.ts';
import { fillRows } from './compare-rows.ts';
import { linkCameras } from './linked-cameras.ts';
import { viewerSection } from './viewer-section.ts';

type Side = 'a' | 'b';

/** Reads a version's API document from this site, or throws naming its URL and what is wrong. */
async function readVersion(base: string, id: string, version: string): Promise<ApiVersion> {
  const url = `${base}${encodePath(apiPaths.version(id, version))}`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const doc = (await response.json().catch(() => null)) as Partial<ApiVersion> | null;
  if (doc?.schema !== 'aso/api/v1/version' || doc.id !== id || doc.version !== version || !Array.isArray(doc.representations)) {
    throw new Error(`${url}: not the API document of ${id}@${version}`);
  }
  return doc as ApiVersion;
}

const changedCount = (rows: readonly ComparisonRow[]): number => rows.filter((r) => r.changed).length;

/** Fills the compare page of `doc`, if it is one. */
export async function startCompare(doc: Document = document): Promise<void> {
  const root = doc.querySelector<HTMLElement>('[data-compare]');
  if (!root) return;
  const part = <T extends Element>(selector: string): T => {
    const el = root.querySelector<T>(selector);
    if (!el) throw new Error(`the compare page has no ${selector}`);
    return el;
  };
  const status = part<HTMLElement>('.compare-status');
  const say = (state: 'loading' | 'ready' | 'failed', text: string): void => {
    status.textContent = text;
    root.dataset.compareState = state;
  };
  try {
    const config = parseCompareConfig(part('script.compare-config').textContent ?? '');
    const params = new URLSearchParams(doc.location.search);
    const pair = comparePair(config.versions, { a: params.get('a'), b: params.get('b') });
    if (!pair) {
      say('failed', `${config.id} has a single version: there is nothing to compare it with.`);
      return;
    }
    for (const side of ['a', 'b'] as const) part<HTMLSelectElement>(`select[name="${side}"]`).value = pair[side];
    part<HTMLAnchorElement>('.compare-swap').search = `?a=${encodeURIComponent(pair.b)}&b=${encodeURIComponent(pair.a)}`;
    const problems = pair.problems.length ? ` (${pair.problems.join('; ')})` : '';
    say('loading', `Reading ${pair.a} and ${pair.b}…${problems}`);

    const base = root.dataset.base ?? '/';
    const [a, b] = await Promise.all([readVersion(base, config.id, pair.a), readVersion(base, config.id, pair.b)]);
    const { facts, metadata } = compareVersions(a, b);
    const versions = { a: a.version, b: b.version };
    fillRows(part<HTMLTableSectionElement>('.compare-facts tbody'), facts, versions);
    fillRows(part<HTMLTableSectionElement>('.compare-metadata tbody'), metadata, versions);
    const template = part<HTMLTemplateElement>('template.compare-viewer');
    const sides: Record<Side, HTMLElement> = { a: part('[data-side="a"]'), b: part('[data-side="b"]') };
    for (const [side, v] of [['a', a], ['b', b]] as const) {
      for (const el of root.querySelectorAll(`[data-version-of="${side}"]`)) el.textContent = v.version;
      const link = sides[side].querySelector<HTMLAnchorElement>('.side-record');
      if (link) link.href = `${base}${versionPagePath(config.id, v.version)}`;
      const when = sides[side].querySelector<HTMLTimeElement>('.side-created');
      if (when) {
        when.dateTime = v.manifest.createdAt;
        when.textContent = v.manifest.createdAt.slice(0, 10);
      }
      part<HTMLElement>(`[data-side="${side}"] .side-viewer`).replaceChildren(viewerSection(template, { name: v.manifest.name, label: `${v.manifest.name} ${v.version}`, representations: v.representations }, `-${side}`));
    }
    part<HTMLElement>('.compare-result').hidden = false;
    const linkBox = part<HTMLInputElement>('.compare-link input');
    const cameras = linkCameras(sides.a, sides.b, () => linkBox.checked);
    linkBox.addEventListener('change', () => cameras.sync());
    startViewers(doc);
    say('ready', `${pair.a} and ${pair.b}: ${changedCount(facts)} of ${facts.length} facts and ${changedCount(metadata)} of ${metadata.length} metadata fields differ.${problems}`);
  } catch (error) {
    say('failed', `The comparison could not be made: ${error instanceof Error ? error.message : String(error)}`);
  }
}

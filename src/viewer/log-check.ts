/**
 * The record page's log check, in the browser: the checkpoint's signature against the log key the page pins, the
 * version's inclusion in the checkpoint's tree (its proof is for the tree right after its line, so the hash tiles the
 * site serves next to the checkpoint prove it in today's), and the publisher's signature of the version. Loaded lazily
 * (it carries Ed25519 and SHA-2), after the page is shown.
 */
import { checkpointOriginProblem, openCheckpoint, type OpenedCheckpoint } from '@aso-registry/core/log/checkpoint';
import { toOrigin } from '@aso-registry/core/format/paths';
import { parsePublisherKeys, publicationSignatureProblem } from '@aso-registry/core/log/publication-signature';
import { RETRACTIONS_FILE } from '@aso-registry/core/log/retractions';
import { findRetractionsCommitment, readCommittedRetractions } from '@aso-registry/core/log/retractions-commitment';
import { parseVerifierKey } from '@aso-registry/core/log/signed-note';
import type { FetchTile } from '@aso-registry/core/log/tlog-tiles';
import { logEntry, versionLogProblems } from '@aso-registry/core/log/version-log';
import type { LogViewConfig } from './log-config.ts';

/** One row's outcome: a state for `data-*-state`, and the words shown. */
export interface RowView {
  state: 'verified' | 'unsigned' | 'failed' | 'retracted';
  text: string;
}

/** The outcome of the three rows. */
export interface LogCheckView {
  log: RowView;
  signature: RowView;
  /** Whether the version is retracted, from the retractions the signed checkpoint commits to. */
  retraction: RowView;
}

/** The checkpoint as read from the site, and where. */
interface ReadCheckpoint {
  url: string;
  opened: OpenedCheckpoint;
}

const failed = (text: string): RowView => ({ state: 'failed', text: `Failed: ${text}` });

/** Checks the version of `config` against the log served from `origin`. */
export async function checkLog(config: LogViewConfig, origin: string, fetchFn: typeof fetch = fetch): Promise<LogCheckView> {
  const read = await readCheckpoint(config, origin, fetchFn);
  const signature = await checkSignature(config);
  if ('state' in read) return { log: read, signature, retraction: read };
  const [log, retraction] = await Promise.all([checkInclusion(config, read, fetchFn), checkRetraction(config, read, fetchFn)]);
  return { log, signature, retraction };
}

async function readCheckpoint(config: LogViewConfig, origin: string, fetchFn: typeof fetch): Promise<ReadCheckpoint | RowView> {
  let note: string;
  let url: string;
  try {
    url = toOrigin(config.log.checkpoint, config.registryUrl, origin);
    const response = await fetchFn(url, { cache: 'no-store' });
    if (!response.ok) return failed(`the checkpoint could not be read (HTTP ${response.status})`);
    note = await response.text();
  } catch (error) {
    return failed(`the checkpoint could not be read (${(error as Error).message})`);
  }
  let opened: OpenedCheckpoint;
  try {
    opened = await openCheckpoint(note, config.logKey ? [parseVerifierKey(config.logKey)] : []);
  } catch (error) {
    return failed((error as Error).message);
  }
  const originProblem = checkpointOriginProblem(opened);
  return originProblem ? failed(originProblem) : { url, opened };
}

async function checkInclusion(config: LogViewConfig, { url, opened }: ReadCheckpoint, fetchFn: typeof fetch): Promise<RowView> {
  let problems: string[];
  try {
    problems = await versionLogProblems(config.log, opened.checkpoint, config.expected, tileFetcher(url, fetchFn));
  } catch (error) {
    return failed((error as Error).message);
  }
  if (problems.length) return failed(problems[0]!);
  const where = `entry ${config.log.leafIndex + 1} of ${opened.checkpoint.size}`;
  const sig = opened.signature;
  if (sig.state === 'verified') {
    const by = sig.by[0]!;
    return { state: 'verified', text: `Verified: ${where} in the checkpoint signed by ${by.name}+${by.keyId}` };
  }
  if (config.logKey && sig.state === 'unverified') {
    return failed(`the checkpoint is not signed by the registry's log key (signed by ${sig.by.map((s) => `${s.name}+${s.keyId}`).join(', ')})`);
  }
  return { state: 'unsigned', text: `Included as ${where}, but the checkpoint is ${config.logKey ? 'unsigned' : 'not checked against a log key (the registry commits none)'}` };
}

/** Reads the log's tiles from where the checkpoint was read: `tile/…` next to `checkpoint`, as tlog-tiles serves them. */
function tileFetcher(checkpointUrl: string, fetchFn: typeof fetch): FetchTile {
  return async (path) => {
    const url = new URL(path, checkpointUrl).href;
    let response: Response;
    try {
      response = await fetchFn(url);
    } catch (error) {
      throw new Error(`the log tile ${path} could not be read (${(error as Error).message})`);
    }
    if (!response.ok) throw new Error(`the log tile ${path} could not be read (HTTP ${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

/**
 * Whether the version is retracted, as the retractions file the checkpoint signed by the pinned log key commits to say
 * (never as the page says): a page served from a cache older than a retraction still shows it here.
 */
async function checkRetraction(config: LogViewConfig, { url, opened }: ReadCheckpoint, fetchFn: typeof fetch): Promise<RowView> {
  if (opened.signature.state !== 'verified') {
    const why = !config.logKey ? 'the registry commits no log key' : opened.signature.state === 'unsigned' ? 'the checkpoint is unsigned' : 'the checkpoint is not signed by the registry\u2019s log key';
    return { state: 'unsigned', text: `Not checked: ${why}` };
  }
  let committed;
  try {
    committed = findRetractionsCommitment(opened.checkpoint.extensions);
  } catch (error) {
    return failed((error as Error).message);
  }
  if (!committed) return failed('the signed checkpoint commits to no retractions');
  let bytes = new Uint8Array();
  if (committed.count > 0) {
    try {
      const response = await fetchFn(new URL(RETRACTIONS_FILE, url).href, { cache: 'no-store' });
      if (!response.ok) return failed(`${RETRACTIONS_FILE} could not be read (HTTP ${response.status})`);
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      return failed(`${RETRACTIONS_FILE} could not be read (${(error as Error).message})`);
    }
  }
  const read = readCommittedRetractions(bytes, committed);
  if ('actual' in read) return failed(`${RETRACTIONS_FILE} is not the file the signed checkpoint commits to`);
  if ('problem' in read) return failed(`${RETRACTIONS_FILE} ${read.problem}`);
  const { entries } = read;
  const { id, version, recordHash } = config.expected;
  const entry = entries.find((e) => e.id === id && e.version === version && e.recordHash === recordHash);
  if (!entry) return { state: 'verified', text: 'Not retracted, as the signed checkpoint commits' };
  return { state: 'retracted', text: `Retracted at ${entry.retractedAt}: ${entry.reason}` };
}

async function checkSignature(config: LogViewConfig): Promise<RowView> {
  const entry = logEntry(config.log);
  if (typeof entry === 'string') return { state: 'failed', text: `Failed: ${entry}` };
  if (entry.signature === undefined || entry.keyId === undefined || entry.publisher === undefined) return { state: 'unsigned', text: 'Not signed by its publisher' };
  try {
    const keys = parsePublisherKeys(config.publisherKeys.join('\n'), entry.publisher);
    const problem = await publicationSignatureProblem(config.expected, { publisher: entry.publisher, keyId: entry.keyId, signature: entry.signature }, keys);
    if (problem) return { state: 'failed', text: `Failed: ${problem}` };
  } catch (error) {
    return { state: 'failed', text: `Failed: the keys of ${entry.publisher}: ${(error as Error).message}` };
  }
  return { state: 'verified', text: `Signed by ${entry.publisher}` };
}

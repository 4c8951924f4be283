/**
 * Whether a site's `/ledger.jsonl` is exactly the log its signed checkpoint commits to (every line a leaf of that
 * tree, as many lines as the tree has), and `api/v1/ledger.json` describes that same ledger: a mirror must not serve
 * one history to ledger readers and another to log readers.
 */
import type { ApiLedgerCheckpoint } from '@aso-registry/core/documents/api-types';
import type { Checkpoint } from '@aso-registry/core/log/checkpoint';
import { LEDGER_CHECKPOINT_PATH, LEDGER_FILE, ledgerLines, lineHash } from '@aso-registry/core/log/ledger';
import { sameBytes } from '@aso-registry/core/log/merkle-proof';
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import { get, getJson, type FetchLike } from './request.ts';

/** Where to read the site, and what the log says. */
export interface LedgerLogContext {
  fetch: FetchLike;
  origin: string;
  resolveUrl(url: string): Promise<string>;
  signal?: AbortSignal | undefined;
  checkpoint: Checkpoint;
  /** The log's entries read from its tiles and proven against the checkpoint, when they could be: they name the first line that differs. */
  entries: readonly string[] | null;
}

const encoder = new TextEncoder();
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Every way the site's ledger differs from its log, one line each (empty when it is the log's). */
export async function ledgerMatchesLog(ctx: LedgerLogContext): Promise<string[]> {
  const { checkpoint, entries } = ctx;
  const problems: string[] = [];
  const url = `${ctx.origin}/${LEDGER_FILE}`;
  let lines: string[] | null = null;
  try {
    const text = await (await get(ctx.fetch, url, ctx.signal)).text();
    const read = ledgerLines(text);
    problems.push(...read.problems.map((p) => `${url}: line ${p.line}: ${p.message}`));
    lines = read.lines;
  } catch (error) {
    problems.push(`${url}: ${message(error)}`);
  }
  if (lines) {
    const differs = entries ? lines.findIndex((line, i) => i < entries.length && line !== entries[i]) : -1;
    if (differs >= 0) problems.push(`${url}: line ${differs + 1} is not the log's entry ${differs + 1}`);
    if (lines.length !== checkpoint.size) problems.push(`${url}: has ${lines.length} lines, but the checkpoint's log has ${checkpoint.size} entries`);
    // The entries were proven against the root already; without them, the lines themselves must hash to it.
    else if (!entries && !sameBytes(MerkleTree.fromEntries(lines.map((l) => encoder.encode(l))).root(), checkpoint.rootHash)) {
      problems.push(`${url}: its lines do not hash to the checkpoint's root`);
    }
  }

  const docUrl = `${ctx.origin}/${LEDGER_CHECKPOINT_PATH}`;
  try {
    const doc = (await getJson(ctx.fetch, docUrl, ctx.signal)) as Partial<ApiLedgerCheckpoint> | null;
    if (doc?.size !== checkpoint.size) problems.push(`${docUrl}: size is ${JSON.stringify(doc?.size)}, but the checkpoint's log has ${checkpoint.size} entries`);
    else if (entries && entries.length === checkpoint.size) {
      const head = entries.length ? lineHash(entries[entries.length - 1]!) : null;
      if (doc.head !== head) problems.push(`${docUrl}: head is ${String(doc.head)}, but the log's last entry hashes to ${String(head)}`);
    }
    if (typeof doc?.url === 'string' && (await ctx.resolveUrl(doc.url)) !== url) problems.push(`${docUrl}: url ${doc.url} is not the site's ${LEDGER_FILE}`);
  } catch (error) {
    problems.push(`${docUrl}: ${message(error)}`);
  }
  return problems;
}

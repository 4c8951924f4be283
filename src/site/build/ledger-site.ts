/** The ledger and the retractions in the built site: copied byte for byte to `/ledger.jsonl` and `/retractions.jsonl`. */
import { join } from 'node:path';
import { apiLedgerCheckpoint } from '@aso-registry/core/documents/api-documents';
import type { ApiLedgerCheckpoint } from '@aso-registry/core/documents/api-types';
import { LEDGER_FILE, type LedgerCheckpoint } from '@aso-registry/core/log/ledger';
import { RETRACTIONS_FILE } from '@aso-registry/core/log/retractions';
import type { OutputWriter } from '../output/output-writer.ts';
import { ledgerPath, readLedgerCheckpoint } from '../../registry/ledger-file.ts';
import { readOptionalText } from '../../io/read-optional-text.ts';

/** Copies the files of the two that exist; returns their names. */
export async function copyLedgerFiles(registryRoot: string, writer: OutputWriter): Promise<string[]> {
  const names: string[] = [];
  for (const name of [LEDGER_FILE, RETRACTIONS_FILE]) {
    if ((await readOptionalText(join(registryRoot, name))) === null) continue;
    await writer.copy(join(registryRoot, name), name);
    names.push(name);
  }
  return names;
}

/**
 * The document of `api/v1/ledger.json` for the registry folder `registryRoot`. `checked` is the ledger's checkpoint as
 * the registry's check verified it (null when there is no ledger): the ledger is then not read and verified again.
 */
export async function ledgerCheckpointDocument(registryRoot: string, registryUrl: string, checked?: LedgerCheckpoint | null): Promise<ApiLedgerCheckpoint> {
  const hasRetractions = (await readOptionalText(join(registryRoot, RETRACTIONS_FILE))) !== null;
  if (checked !== undefined) return apiLedgerCheckpoint(registryUrl, checked, hasRetractions);
  const hasLedger = (await readOptionalText(ledgerPath(registryRoot))) !== null;
  return apiLedgerCheckpoint(registryUrl, hasLedger ? await readLedgerCheckpoint(registryRoot) : null, hasRetractions);
}

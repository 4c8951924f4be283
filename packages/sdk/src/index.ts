/**
 * The client SDK of the registry: `createClient({ origin })`, then `getObject(id, version)` and
 * `checkIntegrity(representation)` over `<origin>/api/v1`. Runs in Node >= 20 and in browsers.
 */
export { createClient } from './client.ts';
export type { AsoClient, ClientOptions, ConsistencyCheck, GetObjectOptions, ObjectVersion, RequestOptions } from './client.ts';
export type { CheckpointInfo, LogMode, LogVerification } from './log-check.ts';
export type { IntegrityCheck, IntegrityTarget } from './check-integrity.ts';
export type { FetchLike } from './request.ts';
export { AsoSdkError, IntegrityError, InvalidResponseError, LedgerError, LogError, NetworkError, NotFoundError } from './errors.ts';
export type { LedgerMode } from './verify-ledger.ts';
export type { AsoSdkErrorCode, IntegrityFacts } from './errors.ts';
export type {
  ApiCatalog,
  ApiIndex,
  ApiLedgerCheckpoint,
  ApiLogInfo,
  VersionLog,
  ApiObject,
  ApiObjectSummary,
  ApiRepresentation,
  ApiVersion,
  ApiVersionSummary,
} from '@aso-registry/core/documents/api-types';
export type { IntegrityResult, Manifest, PublicationRecord, Representation } from '@aso-registry/core/format/types';

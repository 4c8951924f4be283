/** What the record page tells the browser about a version's place in the log, written by LogStatus.astro as JSON. */
import type { VersionLogView } from '@aso-registry/core/log/version-log';

/** The log check's input. */
export type LogViewConfig = VersionLogView;

/** The JSON text of a config, safe inside a `<script>` element. */
export function serializeLogConfig(config: LogViewConfig): string {
  return JSON.stringify(config).replace(/</g, '\\u003c');
}

/** Parses the config; throws naming what is missing. */
export function parseLogConfig(text: string): LogViewConfig {
  const data = JSON.parse(text) as Partial<LogViewConfig> | null;
  if (typeof data !== 'object' || data === null) throw new Error('log config: expected a JSON object');
  if (typeof data.registryUrl !== 'string') throw new Error('log config: "registryUrl" must be a string');
  if (data.logKey !== null && typeof data.logKey !== 'string') throw new Error('log config: "logKey" must be a string or null');
  if (typeof data.log !== 'object' || data.log === null) throw new Error('log config: "log" must be an object');
  if (typeof data.expected !== 'object' || data.expected === null) throw new Error('log config: "expected" must be an object');
  if (!Array.isArray(data.publisherKeys)) throw new Error('log config: "publisherKeys" must be a list');
  return data as LogViewConfig;
}

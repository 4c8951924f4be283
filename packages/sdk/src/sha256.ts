/** The incremental SHA-256 that the SDK needs, as one small interface with a Node and a web implementation. */

/** Bytes go in chunk by chunk; `digest()` gives `sha256-<base64>`. */
export interface Sha256 {
  update(chunk: Uint8Array): void;
  digest(): Promise<string>;
}

/** Streams an uploaded file to a temporary file, hashing and counting it on the way, so that no upload is held in memory. */
import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { ApiError } from './api-error.ts';

/** An upload on disk, complete and flushed, waiting to be handed to the blob store. */
export interface StagedUpload {
  path: string;
  byteLength: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
}

/** Writes `source` to `path` (which must not exist); past `maxBytes` it stops with 413 and removes the file, as on any error. */
export async function stageUpload(source: AsyncIterable<Uint8Array>, path: string, maxBytes: number): Promise<StagedUpload> {
  const hash = createHash('sha256');
  let byteLength = 0;
  const file = await open(path, 'wx');
  try {
    for await (const chunk of source) {
      byteLength += chunk.length;
      if (byteLength > maxBytes) throw new ApiError(413, 'image_too_large', `the uploaded "image" is larger than the limit of ${maxBytes} bytes`);
      hash.update(chunk);
      for (let offset = 0; offset < chunk.length; ) offset += (await file.write(chunk, offset)).bytesWritten;
    }
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(path, { force: true });
    throw err;
  }
  await file.close();
  return { path, byteLength, sha256: hash.digest('hex') };
}

/** The files a host reads beside the site: `_headers` (Netlify, Cloudflare Pages), from core/host-headers.ts. */
import { join } from 'node:path';
import { headersFile } from '../core/host-headers.ts';
import { writeFileAtomic } from '../io/atomic-file.ts';

/** Writes `_headers` into the output folder. */
export async function writeHostFiles(outDir: string): Promise<string[]> {
  await writeFileAtomic(join(outDir, '_headers'), headersFile());
  return ['_headers'];
}

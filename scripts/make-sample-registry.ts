/**
 * Generates the sample registry: `npx tsx scripts/make-sample-registry.ts [--force] [--out <dir>]`.
 * Deterministic: the timestamps and UUIDs are fixed in scripts/sample/sample-catalog.ts, so a rerun
 * with --force writes the same bytes. Without --force an existing version folder is never touched.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatCount } from '@aso-registry/core/documents/format-count';
import { registryDir } from '../src/registry/registry-dir.ts';
import { makeSampleRegistry, PublishedVersionError, type MadeRegistry } from './sample/make-registry.ts';

const USAGE = `usage: npx tsx scripts/make-sample-registry.ts [--force] [--out <dir>]

  --out <dir>  the registry folder to write (default: ASO_REGISTRY_DIR, else ./registry)
  --force      replace sample version folders that exist already
  --help       this text`;

/** One line per file: path, bytes, and the gltf-validator counts of meshes. */
export function summary(made: MadeRegistry): string[] {
  const lines: string[] = [];
  let total = 0;
  for (const v of made.versions) {
    const versionBytes = v.manifestBytes.byteLength + v.publicationBytes.byteLength + v.files.reduce((n, f) => n + f.file.bytes.byteLength, 0);
    total += versionBytes;
    lines.push(`${v.sample.id}@${v.sample.version}  ${formatCount(versionBytes)} bytes`);
    for (const f of v.files) {
      const g = f.file.gltf;
      const checks = g ? `  gltf-validator: ${g.errors} errors, ${g.warnings} warnings, ${g.infos} infos, ${g.hints} hints` : '';
      const size = f.file.width ? `  ${f.file.width}x${f.file.height}` : '';
      lines.push(`  ${f.representation.id}.${f.representation.format}  ${formatCount(f.file.bytes.byteLength)}${size}${checks}`);
    }
  }
  lines.push(`${made.versions.length} versions, ${made.worlds.length} worlds, ${formatCount(total)} bytes of versions`);
  return lines;
}

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, options: { force: { type: 'boolean' }, out: { type: 'string' }, help: { type: 'boolean' } } });
  } catch (error) {
    console.error(`make-sample-registry: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    console.log(USAGE);
    return 0;
  }
  const root = args.values.out ? resolve(args.values.out) : registryDir();
  try {
    const made = await makeSampleRegistry({ root, force: args.values.force ?? false, log: (line) => console.error(line) });
    console.log(`wrote the sample registry to ${root}`);
    for (const line of summary(made)) console.log(line);
    return 0;
  } catch (error) {
    if (error instanceof PublishedVersionError) console.error(`make-sample-registry: ${error.message}`);
    else console.error(`make-sample-registry: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));

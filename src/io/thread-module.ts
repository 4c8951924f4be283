/**
 * The module a worker thread named `name` starts from, beside the module at `from` (its `import.meta.url`): in the
 * build's bundle `<name>-entry.mjs`, which scripts/build-bundle.mjs bundles beside the build, and from the sources
 * `<name>-source.mjs`, which registers tsx and then loads the TypeScript `<name>-entry.ts`.
 */
export function threadModule(from: string, name: string): URL {
  return new URL(`./${name}-${from.endsWith('.ts') ? 'source' : 'entry'}.mjs`, from);
}

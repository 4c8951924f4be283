/** The copyable snippets of a record page: the SDK call, the manifest URL, and a download checked with `sha256sum`. Pure. */

/** One snippet: what it is for, and the exact text a copy button puts on the clipboard. */
export interface Snippet {
  key: 'sdk' | 'manifest' | 'verify';
  label: string;
  text: string;
}

/** What the snippets are made of. */
export interface SnippetInput {
  id: string;
  version: string;
  /** The origin the registry is published at (the SDK's `origin`). */
  registryUrl: string;
  manifestUrl: string;
  /** The file the check downloads, when the version has one. */
  file?: { url: string; name: string; sha256: string } | undefined;
}

/** The SDK's package name. */
const SDK_PACKAGE = '@aso-registry/sdk';

/** A JavaScript string literal in single quotes. */
function jsString(s: string): string {
  return `'${s.replace(/[\\']/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}'`;
}

/** A shell word: as it is when it holds only safe characters, else in single quotes. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9._\/:@%+=,-]+$/.test(s) && !s.startsWith('-') ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The snippets of a version, in the order the page shows them. */
export function recordSnippets({ id, version, registryUrl, manifestUrl, file }: SnippetInput): Snippet[] {
  const out: Snippet[] = [
    {
      key: 'sdk',
      label: 'JavaScript (@aso-registry/sdk)',
      text: [
        `import { createClient } from ${jsString(SDK_PACKAGE)};`,
        `const { getObject } = createClient({ origin: ${jsString(registryUrl)} });`,
        `const object = await getObject(${jsString(id)}, ${jsString(version)});`,
      ].join('\n'),
    },
    { key: 'manifest', label: 'Manifest URL', text: manifestUrl },
  ];
  if (file) {
    out.push({
      key: 'verify',
      label: `Download ${file.name} and check its SHA-256`,
      text: `curl -fsSL -o ${shellWord(file.name)} ${shellWord(file.url)}\necho ${shellWord(`${file.sha256}  ${file.name}`)} | sha256sum -c -`,
    });
  }
  return out;
}

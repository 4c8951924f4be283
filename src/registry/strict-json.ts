/**
 * The one way the registry's JSON files are read, by `npm run check` and by the build alike: UTF-8 without a byte order
 * mark, JSON as `JSON.parse` reads it, no key twice in an object (two readers could see two documents behind one record
 * hash) and a bounded nesting depth (what renders the site recurses). Pure (no I/O); jsonc-parser's scanner tokenizes.
 */
import { createScanner, type SyntaxKind as Kind } from 'jsonc-parser';

/** The token kinds used here: jsonc-parser declares them as a `const enum`, which isolated modules cannot read. */
const SyntaxKind = {
  OpenBraceToken: 1 as Kind.OpenBraceToken,
  CloseBraceToken: 2 as Kind.CloseBraceToken,
  OpenBracketToken: 3 as Kind.OpenBracketToken,
  CloseBracketToken: 4 as Kind.CloseBracketToken,
  CommaToken: 5 as Kind.CommaToken,
  StringLiteral: 10 as Kind.StringLiteral,
  EOF: 17 as Kind.EOF,
} as const;

/** How deep objects and arrays may nest in a registry JSON file; the document itself is level 1. */
export const MAX_JSON_DEPTH = 64;

/** A parsed document, or why the bytes are refused (with a JSON pointer when the problem has a place). */
export type StrictJson = { value: unknown } | { error: string; pointer?: string };

const BOM = [0xef, 0xbb, 0xbf];

/** Parses `bytes` as a registry JSON file, or says what is wrong with them. */
export function parseStrictJson(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): StrictJson {
  if (BOM.every((b, i) => bytes[i] === b)) {
    return { error: 'starts with a UTF-8 byte order mark (bytes EF BB BF); save the file as UTF-8 without a byte order mark' };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { error: 'is not valid UTF-8' };
  }
  let value: unknown;
  try {
    // V8 parses without recursion, so any depth is safe here; the scan below bounds it for what comes after.
    value = JSON.parse(text);
  } catch (error) {
    return { error: `is not valid JSON: ${(error as Error).message}` };
  }
  const wrong = structureProblem(text, maxDepth);
  return wrong ?? { value };
}

type Frame = { kind: 'object'; keys: Set<string>; key: string; expectKey: boolean } | { kind: 'array'; index: number };

/** A JSON pointer segment (RFC 6901). */
function segment(frame: Frame): string {
  return frame.kind === 'array' ? String(frame.index) : frame.key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointer(frames: readonly Frame[]): string {
  return frames.map((f) => `/${segment(f)}`).join('');
}

/** The first repeated key or too deep container of valid JSON `text`, found without recursion. */
function structureProblem(text: string, maxDepth: number): { error: string; pointer: string } | undefined {
  const scanner = createScanner(text, true);
  const stack: Frame[] = [];
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    const top = stack.at(-1);
    switch (token) {
      case SyntaxKind.OpenBraceToken:
      case SyntaxKind.OpenBracketToken:
        if (stack.length >= maxDepth) {
          return { pointer: pointer(stack), error: `nests objects and arrays deeper than ${maxDepth} levels; flatten it` };
        }
        stack.push(token === SyntaxKind.OpenBraceToken ? { kind: 'object', keys: new Set(), key: '', expectKey: true } : { kind: 'array', index: 0 });
        break;
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        stack.pop();
        break;
      case SyntaxKind.CommaToken:
        if (top?.kind === 'object') top.expectKey = true;
        else if (top?.kind === 'array') top.index++;
        break;
      case SyntaxKind.StringLiteral:
        if (top?.kind === 'object' && top.expectKey) {
          const key = scanner.getTokenValue();
          top.key = key;
          top.expectKey = false;
          if (top.keys.has(key)) {
            return { pointer: pointer(stack), error: `repeats the key ${JSON.stringify(key)} in one object; a key may appear only once` };
          }
          top.keys.add(key);
        }
        break;
      default:
        break;
    }
  }
  return undefined;
}

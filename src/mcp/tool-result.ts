/** A tool's answer: the structured content, and the same JSON as text for clients that read only text. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** `structured` as both structured content and text; `isError` marks a result that must not be read as success. */
export function toolResult(structured: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
    ...(isError ? { isError: true } : {}),
  };
}

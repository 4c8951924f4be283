/** A JSON body for a static route, pretty-printed with a final newline. */
export function jsonResponse(value: unknown): Response {
  return new Response(`${JSON.stringify(value, null, 2)}\n`, { headers: { 'content-type': 'application/json' } });
}

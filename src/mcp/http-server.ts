/**
 * The Streamable HTTP transport on `<host>:<port>/mcp`, stateless: each POST gets a server and a transport of its own,
 * after the DNS-rebinding check. GET (a stream the server would push on) and DELETE (a session) are not offered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { allowedPlaces, rebindingProblem } from './rebinding-guard.ts';

const MCP_PATH = '/mcp';

/** A running HTTP transport. */
export interface McpHttpServer {
  /** `http://<host>:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** A JSON-RPC error answer with no request id, as the transport itself answers. */
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }).end(body);
}

/** Serves `createMcp()` on `host`:`port` (0: a free port). */
export async function startMcpHttpServer(opts: { host: string; port: number; createMcp: () => McpServer; onError?: (error: Error) => void }): Promise<McpHttpServer> {
  let allowed = allowedPlaces(opts.host, opts.port);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const problem = rebindingProblem(req.headers, allowed);
    if (problem) return refuse(res, 403, problem);
    if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_PATH) return refuse(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    if (req.method !== 'POST') return refuse(res, 405, `${req.method} is not offered: this server is stateless, send each message with POST`, { allow: 'POST' });
    const mcp = opts.createMcp();
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      opts.onError?.(error as Error);
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  allowed = allowedPlaces(opts.host, port);
  // A wildcard bind is reached on loopback here; the guard accepts no other name for it.
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

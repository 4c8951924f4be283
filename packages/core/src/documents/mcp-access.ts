/** How an agent reaches the MCP server over a registry site, as `llms.txt` and `agent.json` say it. Pure. */

/** The tools the MCP server offers (`src/mcp/`). */
const MCP_TOOLS = ['search_objects', 'get_object', 'list_versions', 'verify_object', 'compare_versions', 'get_world'] as const;

/** The `mcp` member of `agent.json`. */
export interface McpAccess {
  /** The command that starts it on stdio, run in a checkout of the registry's source (`--silent` keeps npm's banner off stdout). */
  command: string;
  /** The same server over Streamable HTTP on loopback. */
  http: string;
  tools: string[];
}

/** How to reach the MCP server over the site at `registryUrl`. */
export function mcpAccess(registryUrl: string): McpAccess {
  const site = registryUrl.replace(/\/+$/, '');
  return {
    command: `npm run --silent mcp -- --site ${site}`,
    http: `npm run mcp -- --site ${site} --http --port <N>, then http://127.0.0.1:<N>/mcp`,
    tools: [...MCP_TOOLS],
  };
}

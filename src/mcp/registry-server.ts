/** The MCP server over one registry site: its tools and resources, each reading the site through the SDK. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerCompareVersions } from './compare-versions.ts';
import { registerGetObject } from './get-object.ts';
import { registerGetWorld } from './get-world.ts';
import { registerListVersions } from './list-versions.ts';
import type { RegistryContext } from './registry-context.ts';
import { registerResources } from './registry-resources.ts';
import { registerSearchObjects } from './search-objects.ts';
import { registerVerifyObject } from './verify-object.ts';

const INSTRUCTIONS =
  'A registry of immutable, versioned 3D objects. Find objects with search_objects, read a version with get_object (its manifest is checked ' +
  'against its record hash and proven in the transparency log before it is returned), and before using a file call verify_object, which hashes ' +
  'every file: a version is trustworthy only when verify_object returns ok: true. list_versions, compare_versions and get_world read the rest; ' +
  'each manifest is also a resource, aso://objects/{id}/versions/{version}/manifest.';

/** A new MCP server on `ctx` (one per HTTP request, or one for stdio). */
export function createRegistryServer(ctx: RegistryContext): McpServer {
  const server = new McpServer({ name: 'aso-registry', title: 'ASO registry', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  registerSearchObjects(server, ctx);
  registerGetObject(server, ctx);
  registerListVersions(server, ctx);
  registerVerifyObject(server, ctx);
  registerCompareVersions(server, ctx);
  registerGetWorld(server, ctx);
  registerResources(server, ctx);
  return server;
}

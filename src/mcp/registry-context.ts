/** What every tool and resource of the MCP server reads the registry through, made once per process. */
import type { AsoClient } from '@aso-registry/sdk';

/** What a search reads of one exact version: all of it fixed once the version is published. */
export interface SearchFacts {
  type: string;
  license: string | null;
  triangles: number | null;
  pageUrl: string;
  thumbnailUrl: string | null;
}

export interface RegistryContext {
  /** The SDK client on the site's origin: every document it returns was checked by it. */
  client: AsoClient;
  /** Whether a log key was pinned (`--log-key`): a checkpoint must then be signed by it. */
  logKeyPinned: boolean;
  /** Search facts by `<id>@<version>`: published versions never change, so a search reads each once. */
  searchFacts: Map<string, SearchFacts>;
}

/** The context of a server reading through `client`. */
export function registryContext(client: AsoClient, logKeyPinned: boolean): RegistryContext {
  return { client, logKeyPinned, searchFacts: new Map() };
}

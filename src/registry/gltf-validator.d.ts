/** Types of the parts of gltf-validator (which ships none) that the project uses. */
declare module 'gltf-validator' {
  import type { GltfReport } from '@aso-registry/core/format/gltf-rules';

  export interface ValidationOptions {
    uri?: string;
    format?: 'gltf' | 'glb';
    externalResourceFunction?: (uri: string) => Promise<Uint8Array>;
    writeTimestamp?: boolean;
    maxIssues?: number;
    ignoredIssues?: string[];
    severityOverrides?: Record<string, number>;
  }

  export function validateBytes(data: Uint8Array, options?: ValidationOptions): Promise<GltfReport>;
  export function validateString(json: string, options?: ValidationOptions): Promise<GltfReport>;
  export function version(): string;
}

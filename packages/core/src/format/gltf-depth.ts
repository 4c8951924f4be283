/**
 * The depth bounds of a glTF asset, checked before gltf-validator reads it: the validator (and viewers after it) walks
 * the JSON and the node hierarchy recursively, and a deep enough asset overflows the stack of the thread that reads it.
 * Pure.
 */
import { gltfJsonBytes } from './gltf-inventory.ts';
import type { GltfFinding } from './gltf-rules.ts';
import { jsonTooDeepAt } from './json-depth.ts';

/** The deepest JSON nesting allowed: serde_json's limit, which the Rust glTF loaders read with, so no asset they read is refused. */
export const MAX_GLTF_JSON_DEPTH = 128;

/** The deepest node hierarchy allowed: far deeper than any rig, and a wide margin under the ~6,500 levels that overflow gltf-validator. */
export const MAX_GLTF_NODE_DEPTH = 1000;

const GLB_HEADER_BYTES = 20;

/** Why the JSON of glTF or GLB `bytes` nests too deep to validate, or null. */
export function gltfJsonDepthFinding(bytes: Uint8Array): GltfFinding | null {
  const json = gltfJsonBytes(bytes);
  const at = jsonTooDeepAt(json, MAX_GLTF_JSON_DEPTH);
  if (at === null) return null;
  const offset = at + (json === bytes ? 0 : GLB_HEADER_BYTES);
  return {
    message: `nests JSON objects and arrays deeper than ${MAX_GLTF_JSON_DEPTH} levels (at byte ${offset}); a glTF asset needs far fewer, and such nesting overflows the validator's stack`,
  };
}

/**
 * Why the node hierarchy of a parsed glTF JSON is too deep to validate, or null. A recursive walk from any root goes no
 * deeper than the chain of parents above a node, counted here without recursion; a node with two parents (which glTF
 * forbids) is refused outright when there are more nodes than the bound, since no such chain then bounds the walk.
 */
export function gltfNodeDepthFinding(json: unknown): GltfFinding | null {
  const nodes = typeof json === 'object' && json !== null ? (json as { nodes?: unknown }).nodes : undefined;
  // A walk cannot go deeper than there are nodes.
  if (!Array.isArray(nodes) || nodes.length <= MAX_GLTF_NODE_DEPTH) return null;
  const n = nodes.length;
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const node: unknown = nodes[i];
    const children = typeof node === 'object' && node !== null ? (node as { children?: unknown }).children : undefined;
    if (!Array.isArray(children)) continue;
    for (const c of children) {
      if (!Number.isInteger(c) || c < 0 || c >= n) continue;
      const p = parent[c]!;
      if (p !== -1 && p !== i) {
        return { pointer: `/nodes/${i}/children`, message: `makes node ${c} a child of node ${i} as well as of node ${p}; a glTF node has at most one parent` };
      }
      parent[c] = i;
    }
  }
  const depth = new Int32Array(n);
  const seen = new Int32Array(n);
  const path: number[] = [];
  for (let i = 0; i < n; i++) {
    if (depth[i] !== 0) continue;
    let j = i;
    while (j !== -1 && depth[j] === 0 && seen[j] !== i + 1) {
      seen[j] = i + 1;
      path.push(j);
      j = parent[j]!;
    }
    // Above the path: a root, a node of known depth, or the path itself (a cycle, counted whole as an upper bound).
    let d = j === -1 ? 0 : depth[j] !== 0 ? depth[j]! : path.length;
    while (path.length) {
      const k = path.pop()!;
      depth[k] = ++d;
      if (d > MAX_GLTF_NODE_DEPTH) {
        const max = MAX_GLTF_NODE_DEPTH.toLocaleString('en-US');
        return { pointer: `/nodes/${k}`, message: `is more than ${max} levels deep in the node hierarchy; at most ${max} are allowed, since a deeper one overflows the validator's stack` };
      }
    }
  }
  return null;
}

/**
 * A viewer section made in the browser: a copy of the section `Viewer.astro` rendered into a `<template>` (so the
 * markup stays the component's), given a version's representations, with its ids made unique on the page.
 */
import type { ApiRepresentation } from '@aso-registry/core/documents/api-types';
import { parseConfig, serializeConfig } from '../../viewer/viewer-config.ts';

/** What one section shows. */
export interface SectionInput {
  /** The manifest `name`: the accessible label of the 3D view. */
  name: string;
  /** What tells this section from the other on the page (`<name> <version>`), in its accessible name. */
  label: string;
  /** The version's representations as its API document lists them (the preview among them). */
  representations: readonly ApiRepresentation[];
}

/** Attributes that name other elements by id. */
const ID_REFERENCES = ['aria-labelledby', 'aria-describedby', 'aria-controls', 'for'];

/**
 * A new viewer section from `template`, configured for `input`: the template's registry URL and decoders are kept, its
 * representations replaced, its accessible name made to name `input.label`; every id in it gets `suffix`, and so does
 * every reference to one of them.
 */
export function viewerSection(template: HTMLTemplateElement, input: SectionInput, suffix: string): HTMLElement {
  const fragment = template.content.cloneNode(true) as DocumentFragment;
  const root = fragment.querySelector<HTMLElement>('[data-viewer]');
  const script = root?.querySelector('script.viewer-config');
  if (!root || !script) throw new Error('the viewer template has no [data-viewer] section with a viewer config');
  const { registryUrl, decoders, name: templateName } = parseConfig(script.textContent ?? '');
  const preview = input.representations.find((r) => r.role === 'preview');
  script.textContent = serializeConfig({
    name: input.name,
    representations: input.representations.filter((r) => r.role !== 'preview'),
    registryUrl,
    decoders,
    ...(preview ? { preview } : {}),
  });
  const named = root.getAttribute('aria-label');
  if (named !== null) root.setAttribute('aria-label', templateName && named.includes(templateName) ? named.replace(templateName, () => input.label) : `${named} ${input.label}`);
  const ids = new Set<string>();
  for (const el of [root, ...root.querySelectorAll<HTMLElement>('[id]')]) {
    if (!el.id) continue;
    ids.add(el.id);
    el.id += suffix;
  }
  for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')]) {
    for (const name of ID_REFERENCES) {
      const value = el.getAttribute(name);
      if (value) el.setAttribute(name, value.split(/\s+/).map((id) => (ids.has(id) ? `${id}${suffix}` : id)).join(' '));
    }
  }
  return root;
}

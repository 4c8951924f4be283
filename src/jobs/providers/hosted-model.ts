/** What the hosted-generator adapters share: the model they record, the options they refuse, and where the image goes. */
import { ProviderSetupError, type OptionValue, type ProviderModel } from './provider.ts';

/** The `--option` value that stands for the input image (for models whose input field has another name). */
const IMAGE_PLACEHOLDER = '@image';

/** A JSON object, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The model a hosted task runs: a GLB mesh, recorded with the options sent as its parameters. `reserved` maps the
 * request fields the adapter fills itself to the flag that sets them; an `--option` naming one is refused.
 */
export function hostedModel(vendor: string, id: string, options: Record<string, OptionValue>, reserved: Record<string, string>): ProviderModel {
  for (const key of Object.keys(options)) {
    const from = reserved[key];
    if (from !== undefined) throw new ProviderSetupError(`--option ${key}: ${vendor} gets "${key}" from ${from}; leave the option out`);
  }
  return { id, name: id, provider: vendor, output: { type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary' }, parameters: { ...options } };
}

/**
 * The model input: the options, with every `@image` (a value, or an item of an array value) replaced by `image`;
 * when no option names the image, it goes in `field`.
 */
export function placeImage(options: Record<string, OptionValue>, field: string, image: string): Record<string, unknown> {
  let placed = false;
  const swap = (v: OptionValue): unknown => {
    if (v === IMAGE_PLACEHOLDER) {
      placed = true;
      return image;
    }
    return v;
  };
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) input[key] = Array.isArray(value) ? value.map(swap) : swap(value);
  if (!placed) input[field] = image;
  return input;
}

/** The signature every built-in model implements. */

/** Reports how far a model is, as a fraction 0..1 of its own work. */
export type ProgressFn = (fraction: number) => void;

/** Turns the bytes of an image into the bytes of an asset; the same input always gives the same bytes. */
export type ModelRun = (image: Uint8Array, progress: ProgressFn) => Promise<Uint8Array>;

/** A numeric parameter of a catalog entry. */
export function numberParameter(parameters: Readonly<Record<string, number | string>>, name: string): number {
  const value = parameters[name];
  if (typeof value !== 'number') throw new Error(`model parameter "${name}" is missing or not a number`);
  return value;
}

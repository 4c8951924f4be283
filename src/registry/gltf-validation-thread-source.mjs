// A glTF validation thread started from the sources, as `npm run check` and the tests run (see
// gltf-validation-threads.ts): it registers the TypeScript loader, then loads the thread's entry. The bundled build
// starts its bundled gltf-validation-thread-entry.mjs instead.
import { register } from 'tsx/esm/api';

register();
const { default: validate } = await import('./gltf-validation-thread-entry.ts');
export default validate;

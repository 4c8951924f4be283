// A copy thread started from the sources, as the tests run the build (see early-copies.ts): it registers the
// TypeScript loader, then loads the thread's entry. The bundled build starts its bundled copy-thread-entry.mjs instead.
import { register } from 'tsx/esm/api';

register();
await import('./copy-thread-entry.ts');

// Starts a model worker thread: the worker runs the TypeScript sources, so it registers the tsx loader first.
import { register } from 'tsx/esm/api';

register();
await import('./model-worker.ts');

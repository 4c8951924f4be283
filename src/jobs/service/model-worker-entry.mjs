// The file piscina loads in each worker thread: the models are TypeScript sources, so it registers the tsx loader first.
import { register } from 'tsx/esm/api';

register();
const { default: runModelTask } = await import('./model-worker.ts');
export default runModelTask;

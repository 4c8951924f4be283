// The file piscina loads in each render thread: the renderer's glue is TypeScript, so it registers the tsx loader first.
import { register } from 'tsx/esm/api';

register();
const { default: renderPage } = await import('./render-worker.ts');
export default renderPage;

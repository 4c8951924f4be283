/** `npm run preview [-- --port N] [-- --host H] [-- --dir dist]`: serve the built site as a host given `_headers` would. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startPreview } from '../src/site/serve/preview-server.ts';

const USAGE = 'usage: npm run preview [-- --port 4321] [-- --host 127.0.0.1] [-- --dir dist]';

let values: { port?: string; host?: string; dir?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const port = values.port === undefined ? 4321 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`--port must be a port number (0-65535), not "${values.port}"\n${USAGE}\n`);
  process.exit(2);
}
const root = resolve(values.dir ?? 'dist');
if (!existsSync(resolve(root, 'index.html'))) {
  process.stderr.write(`${root} holds no built site (no index.html); run npm run build first\n`);
  process.exit(1);
}
const preview = await startPreview({ root, port, host: values.host ?? '127.0.0.1' });
process.stdout.write(`serving ${root} on ${preview.origin}/ (Ctrl-C stops)\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void preview.close().then(() => process.exit(0)));

/** The HTML pages: home, sign-up (when open) and the dashboard. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CATALOG_NOTE, MODEL_CATALOG, PROVIDER_COMMAND } from '../../models/catalog.ts';
import type { KeyStore } from '../../store/types.ts';
import { ApiError } from '../api-error.ts';
import { escapeHtml, page, PAGE_HEADERS } from './html.ts';

/** What the pages need. */
export interface PageDeps {
  keys: KeyStore;
  openSignup: boolean;
  /** Sign-ups per client address per window. */
  maxSignups: number;
  windowMs: number;
}

const ASSETS: Record<string, string> = { 'dashboard.js': 'text/javascript; charset=utf-8', 'style.css': 'text/css; charset=utf-8', 'eventsource-parser.js': 'text/javascript; charset=utf-8' };

/** The files of `ASSETS`: this folder's own, and the browser build of the event stream parser the dashboard imports. */
function assetPath(name: string): string | URL {
  if (name !== 'eventsource-parser.js') return new URL(`./${name}`, import.meta.url);
  return join(dirname(createRequire(import.meta.url).resolve('eventsource-parser/package.json')), 'dist', 'index.js');
}

/** Registers the pages on `app`. */
export async function pageRoutes(app: FastifyInstance, deps: PageDeps): Promise<void> {
  const assets = new Map<string, string>();
  for (const name of Object.keys(ASSETS)) assets.set(name, await readFile(assetPath(name), 'utf8'));

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) void reply.headers(PAGE_HEADERS);
    return payload;
  });

  app.get('/', async (_request, reply) => {
    const models = MODEL_CATALOG.map((m) => `<li><code>${escapeHtml(m.id)}</code> — ${escapeHtml(m.description)} (${m.format})</li>`).join('\n');
    const body = `<h1>Reference image-to-3D job service</h1>
<p>Submit an image with <code>POST /v1/jobs</code> (with a <code>webhook_url</code> to be told of each change), follow <code>GET /v1/jobs/{id}/events</code> or poll <code>GET /v1/jobs/{id}</code>, download the asset from its <code>download_url</code>. Every <code>/v1</code> call takes <code>Authorization: Bearer &lt;API key&gt;</code>.</p>
<p>${deps.openSignup ? '<a href="/signup">Sign up for an API key</a> or' : 'Ask the operator for an API key, then'} <a href="/dashboard">open the dashboard</a>.</p>
<h2>Models</h2>
<p>${escapeHtml(CATALOG_NOTE).replace(escapeHtml(PROVIDER_COMMAND), `<code>${escapeHtml(PROVIDER_COMMAND)}</code>`)}</p>
<ul>
${models}
</ul>`;
    return reply.type('text/html; charset=utf-8').send(page('Home', body, [], deps.openSignup));
  });

  app.get('/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const text = assets.get(name);
    if (text === undefined) throw new ApiError(404, 'not_found', `no asset "${name}"`);
    return reply.type(ASSETS[name]!).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(text);
  });

  app.get('/dashboard', async (_request, reply) => {
    const body = `<h1>Your jobs</h1>
<form id="signin">
<label>API key <input name="key" type="password" autocomplete="off" required placeholder="aso_sk_…"></label>
<button type="submit">Sign in</button>
</form>
<p id="message" role="status" aria-live="polite"></p>
<section id="jobs" hidden>
<p><button id="refresh" type="button">Refresh</button> <button id="signout" type="button" hidden>Sign out</button></p>
<div class="table-scroll">
<table>
<thead><tr><th scope="col">Job</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Created</th><th scope="col">Asset</th></tr></thead>
<tbody id="job-rows"></tbody>
</table>
</div>
<p id="empty" hidden>No jobs yet.</p>
</section>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page('Dashboard', body, ['/assets/dashboard.js'], deps.openSignup));
  });

  const closed = (): ApiError => new ApiError(404, 'signup_closed', 'sign-up is closed on this service; ask its operator for a key');

  app.get('/signup', async (request, reply) => {
    if (!deps.openSignup) {
      // A person who follows an old link gets a page; a client that asks for JSON gets the API's error.
      if (!String(request.headers.accept ?? '').includes('text/html')) throw closed();
      const body = `<h1>Sign-up is closed</h1>
<p>This service does not issue keys to anyone who asks. Ask its operator for an API key, then <a href="/dashboard">open the dashboard</a>.</p>`;
      return reply.code(404).type('text/html; charset=utf-8').send(page('Sign-up is closed', body));
    }
    const body = `<h1>Sign up</h1>
<p>Name your key (for example your name or the name of your script). The key is shown once; only its hash is kept.</p>
<form method="post" action="/signup">
<label>Name <input name="name" required maxlength="64" autocomplete="off"></label>
<button type="submit">Create API key</button>
</form>`;
    return reply.type('text/html; charset=utf-8').send(page('Sign up', body, [], deps.openSignup));
  });

  app.post('/signup', { config: { rateLimit: { max: deps.maxSignups, timeWindow: deps.windowMs } } }, async (request, reply) => {
    if (!deps.openSignup) throw closed();
    const name = (request.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string' || name.trim().length === 0) throw new ApiError(400, 'invalid_request', 'field "name" is required');
    let created;
    try {
      created = await deps.keys.create(name);
    } catch (err) {
      throw new ApiError(400, 'invalid_request', (err as Error).message);
    }
    void reply.header('cache-control', 'no-store');
    if (request.headers['content-type']?.startsWith('application/json')) {
      return reply.code(201).send({ id: created.record.id, name: created.record.name, key: created.key });
    }
    const body = `<h1>Your API key</h1>
<p>Copy it now: it is not shown again. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<output class="key" id="api-key">${escapeHtml(created.key)}</output>
<p>Key id <code>${escapeHtml(created.record.id)}</code>, named “${escapeHtml(created.record.name)}”. <a href="/dashboard">Open the dashboard</a>.</p>`;
    return reply.code(201).type('text/html; charset=utf-8').send(page('Your API key', body, [], deps.openSignup));
  });
}

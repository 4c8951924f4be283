import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestService, type TestService } from './helpers.ts';

describe.each(BACKENDS)('pages: home, sign-up and dashboard (%s)', (backend) => {
  let open: TestService;
  let closed: TestService;
  beforeAll(async () => {
    [open, closed] = await Promise.all([startTestService({ backend, openSignup: true, processJobs: false }), startTestService({ backend, processJobs: false })]);
  });
  afterAll(async () => {
    await Promise.all([open.stop(), closed.stop()]);
  });

  it('sign-up issues a working key when open, and is a 404 when closed', async () => {
    const form = await fetch(`${open.url}/signup`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('<form method="post" action="/signup">');
    const page = await fetch(`${open.url}/signup`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Ada+%3Cscript%3E' });
    expect(page.status).toBe(201);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('Ada &lt;script&gt;');
    const key = /id="api-key">([^<]+)</.exec(html)![1]!;
    expect((await fetch(`${open.url}/v1/jobs`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const json = await fetch(`${open.url}/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'script' }) });
    expect(((await json.json()) as { key: string }).key).toMatch(/^aso_sk_/);
    const empty = await fetch(`${open.url}/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('invalid_request');

    for (const init of [undefined, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' }]) {
      const refused = await fetch(`${closed.url}/signup`, init);
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('signup_closed');
    }
  });

  it('links sign-up only when it is open; a person following an old link gets an HTML page', async () => {
    for (const path of ['/', '/dashboard']) {
      expect(await (await fetch(`${open.url}${path}`)).text(), path).toContain('href="/signup"');
      expect(await (await fetch(`${closed.url}${path}`)).text(), path).not.toContain('href="/signup"');
    }
    const page = await fetch(`${closed.url}/signup`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<h1>Sign-up is closed</h1>');
    expect(html).toContain('href="/dashboard"');
  });

  it('serves the dashboard page, its script and style, and the home page lists every model', async () => {
    const page = await fetch(`${open.url}/dashboard`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<form id="signin">');
    expect(html).toContain('src="/assets/dashboard.js"');
    const script = await fetch(`${open.url}/assets/dashboard.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${open.url}/assets/style.css`)).status).toBe(200);
    expect((await fetch(`${open.url}/assets/nothing.js`)).status).toBe(404);
    const home = await (await fetch(`${open.url}/`)).text();
    for (const id of ['relief', 'silhouette', 'card', 'lithophane', 'points']) expect(home).toContain(`<code>${id}</code>`);
    expect(home).toContain('None is a learned model');
    expect(home).toContain('--provider meshy|tripo|fal|replicate');
    // The dashboard's event stream parser, from the package itself.
    const parser = await fetch(`${open.url}/assets/eventsource-parser.js`);
    expect(parser.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await parser.text()).toMatch(/export\s*{[^}]*createParser/);
  });
});

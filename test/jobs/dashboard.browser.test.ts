import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { launchBrowser } from '../support/browser.ts';
import { BACKENDS, discPng, postJson, postUpload, startImageServer, startTestService, waitForJob, type TestService } from './helpers.ts';

describe.each(BACKENDS)('the dashboard in a browser (%s)', (backend) => {
  let svc: TestService;
  let browser: Browser;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  let release: () => void = () => {};
  beforeAll(async () => {
    const png = Buffer.from(await discPng());
    const held = new Promise<void>((resolve) => (release = resolve));
    images = await startImageServer((req, res) => {
      if (req.url === '/missing.png') return res.writeHead(404).end();
      // The slow image is sent only when the test says so: its job stays running until then.
      void held.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    });
    [svc, browser] = await Promise.all([startTestService({ backend }), launchBrowser()]);
  });
  afterAll(async () => {
    release();
    await browser?.close();
    await svc?.stop();
    await images?.close();
  });

  /** A page of the dashboard that records script errors. */
  async function open(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${svc.url}/dashboard`);
    return { page, errors };
  }

  async function signIn(page: Page, key: string): Promise<void> {
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('signs in with a key, lists its jobs with status and progress, and downloads an asset', async () => {
    const job = await waitForJob(svc.url, svc.key, ((await (await postUpload(svc.url, svc.key, 'card', await discPng())).json()) as JobDocument).id);
    const { page, errors } = await open();
    await signIn(page, 'aso_sk_wrong');
    await expect.poll(() => page.locator('#message').textContent()).toContain('invalid_api_key');
    expect(await page.locator('#jobs').isHidden()).toBe(true);
    await signIn(page, svc.key);
    const row = page.locator(`tr[data-job="${job.id}"]`);
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('succeeded');
    expect(await row.locator('progress').getAttribute('value')).toBe('100');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download .glb' }).click()]);
    expect(download.suggestedFilename()).toBe(`${job.id}.glb`);
    const { readFile } = await import('node:fs/promises');
    expect((await readFile((await download.path())!)).length).toBe(job.asset!.byte_length);
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.locator('#jobs').isHidden()).toBe(true);
    expect(await page.locator(`tr[data-job]`).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the key for this tab only: a reload stays signed in, a new tab asks again, nothing goes to localStorage', async () => {
    const key = await svc.service.createKey('session');
    const { page, errors } = await open();
    await signIn(page, key);
    await page.locator('#empty').waitFor();
    expect(await page.locator('#empty').textContent()).toBe('No jobs yet.');
    await page.reload();
    await page.locator('#empty').waitFor();
    expect(await page.locator('#signin').isHidden()).toBe(true);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    const other = await open();
    expect(await other.page.locator('#signin').isVisible()).toBe(true);
    expect(await other.page.locator('#jobs').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.locator('#message').textContent()).toBe('Signed out.');
    await page.reload();
    expect(await page.locator('#signin').isVisible()).toBe(true);
    expect([...errors, ...other.errors]).toEqual([]);
    await Promise.all([page.close(), other.page.close()]);
  });

  it("shows a failed job's reason, and follows a running job through its event stream until it finishes, without a reload or a poll", async () => {
    const key = await svc.service.createKey('follow');
    const failed = await waitForJob(svc.url, key, ((await (await postJson(svc.url, key, { model: 'card', image_url: `${images.url}/missing.png` })).json()) as JobDocument).id);
    expect(failed.status).toBe('failed');
    const slow = (await (await postJson(svc.url, key, { model: 'card', image_url: `${images.url}/slow.png` })).json()) as JobDocument;
    const { page, errors } = await open();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await signIn(page, key);
    const failedRow = page.locator(`tr[data-job="${failed.id}"]`);
    await failedRow.waitFor();
    expect(await failedRow.locator('td').nth(2).textContent()).toBe('failed');
    expect(await failedRow.locator('td').nth(5).textContent()).toBe(failed.error!.message);
    expect(await failedRow.locator('td').nth(2).getAttribute('title')).toBe(`${failed.error!.code}: ${failed.error!.message}`);
    const slowRow = page.locator(`tr[data-job="${slow.id}"]`);
    await slowRow.waitFor();
    expect(['queued', 'running']).toContain(await slowRow.locator('td').nth(2).textContent());
    expect(await slowRow.getByRole('button').count()).toBe(0);
    release();
    await expect.poll(() => slowRow.locator('td').nth(2).textContent(), { timeout: 30_000 }).toBe('succeeded');
    expect(await slowRow.getByRole('button', { name: 'Download .glb' }).count()).toBe(1);
    expect(await slowRow.locator('progress').getAttribute('value')).toBe('100');
    // The list was read once, at sign-in; the running job came through its stream, and the finished one was not followed.
    expect(requests.filter((r) => r.startsWith('/v1/'))).toEqual(['/v1/jobs?limit=100', `/v1/jobs/${slow.id}/events`]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

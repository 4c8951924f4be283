import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { launchBrowser } from '../support/browser.ts';
import { BACKENDS, discPng, postUpload, startTestService, waitForJob, type TestService } from './helpers.ts';

describe.each(BACKENDS)('the dashboard in a browser (%s)', (backend) => {
  let svc: TestService;
  let browser: Browser;
  beforeAll(async () => {
    [svc, browser] = await Promise.all([startTestService({ backend }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('signs in with a key, lists its jobs with status and progress, and downloads an asset', async () => {
    const job = await waitForJob(svc.url, svc.key, ((await (await postUpload(svc.url, svc.key, 'card', await discPng())).json()) as JobDocument).id);
    const page = await browser.newPage({ acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${svc.url}/dashboard`);
    await page.getByLabel('API key').fill('aso_sk_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#message').textContent()).toContain('invalid_api_key');
    await page.getByLabel('API key').fill(svc.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
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
    expect(errors).toEqual([]);
    await page.close();
  });
});

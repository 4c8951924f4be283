import { describe, expect, it } from 'vitest';
import { checkImageUrl, fetchImage } from '../../src/jobs/service/fetch-image.ts';
import { startImageServer } from './helpers.ts';

const strict = { allowLoopback: false, allowPrivate: false };
const loopback = { allowLoopback: true, allowPrivate: false };

describe('the address policy of image_url', () => {
  it('checks names by what they resolve to', async () => {
    await expect(checkImageUrl('http://localhost:9/a.png', strict)).rejects.toMatchObject({ code: 'image_url_refused' });
    await expect(checkImageUrl('http://127.0.0.1:9/a.png', strict)).rejects.toMatchObject({ code: 'image_url_refused' });
    await expect(checkImageUrl('http://[::1]:9/a.png', strict)).rejects.toMatchObject({ code: 'image_url_refused' });
    await expect(checkImageUrl('http://127.0.0.1:9/a.png', loopback)).resolves.toBeInstanceOf(URL);
    await expect(checkImageUrl('http://no-such-host.invalid/a.png', strict)).rejects.toMatchObject({ code: 'image_url_unresolvable' });
    await expect(checkImageUrl('ftp://example.com/a.png', strict)).rejects.toMatchObject({ code: 'invalid_image_url' });
    await expect(checkImageUrl('http://user:pw@example.com/a.png', strict)).rejects.toMatchObject({ code: 'invalid_image_url' });
  });
});

describe('fetching image_url', () => {
  it('caps the size, follows few redirects, times out, and refuses loopback unless allowed', async () => {
    const big = new Uint8Array(5000);
    const server = await startImageServer((req, res) => {
      if (req.url === '/big') res.writeHead(200, { 'content-type': 'image/png' }).end(big);
      else if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(big);
        res.end(big);
      } else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/ok') res.writeHead(200).end(new Uint8Array([1, 2, 3]));
      // '/hang' never answers.
    });
    const base = { timeoutMs: 5000, maxBytes: 4000, maxRedirects: 2 };
    try {
      await expect(fetchImage(`${server.url}/ok`, { ...base, policy: strict })).rejects.toMatchObject({ code: 'image_url_refused' });
      expect((await fetchImage(`${server.url}/ok`, { ...base, policy: loopback })).bytes).toEqual(new Uint8Array([1, 2, 3]));
      await expect(fetchImage(`${server.url}/big`, { ...base, policy: loopback })).rejects.toMatchObject({ code: 'image_too_large' });
      await expect(fetchImage(`${server.url}/chunked`, { ...base, maxBytes: 8000, policy: loopback })).rejects.toMatchObject({ code: 'image_too_large' });
      await expect(fetchImage(`${server.url}/loop`, { ...base, policy: loopback })).rejects.toMatchObject({ code: 'image_fetch_failed', message: expect.stringContaining('redirected more than 2') });
      await expect(fetchImage(`${server.url}/hang`, { ...base, timeoutMs: 200, policy: loopback })).rejects.toMatchObject({ code: 'image_fetch_failed', message: expect.stringContaining('within 200 ms') });
      const name = server.url.replace('127.0.0.1', 'localhost');
      await expect(fetchImage(`${name}/ok`, { ...base, policy: strict })).rejects.toMatchObject({ code: 'image_url_refused' });
    } finally {
      await server.close();
    }
  });
});

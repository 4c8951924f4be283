import { describe, expect, it } from 'vitest';
import { addressKind, refusal } from '../../src/jobs/service/address-policy.ts';
import { checkImageUrl, fetchImage } from '../../src/jobs/service/fetch-image.ts';
import { startImageServer } from './helpers.ts';

const strict = { allowLoopback: false, allowPrivate: false };
const loopback = { allowLoopback: true, allowPrivate: false };

describe('the address policy of image_url', () => {
  it('sorts addresses into loopback, private, link-local, reserved and public', () => {
    expect(addressKind('127.0.0.1')).toBe('loopback');
    expect(addressKind('::1')).toBe('loopback');
    expect(addressKind('::ffff:127.0.0.1')).toBe('loopback');
    expect(addressKind('::ffff:7f00:1')).toBe('loopback');
    expect(addressKind('10.20.30.40')).toBe('private');
    expect(addressKind('172.31.0.1')).toBe('private');
    expect(addressKind('192.168.0.10')).toBe('private');
    expect(addressKind('fd12::1')).toBe('private');
    expect(addressKind('169.254.169.254')).toBe('link-local');
    expect(addressKind('fe80::1')).toBe('link-local');
    expect(addressKind('0.0.0.0')).toBe('reserved');
    expect(addressKind('224.0.0.1')).toBe('reserved');
    expect(addressKind('93.184.215.14')).toBeUndefined();
    expect(addressKind('2606:4700::1111')).toBeUndefined();
    expect(addressKind('172.32.0.1')).toBeUndefined();
  });

  it('refuses IPv4 carried or translated in IPv6, whatever flag is set', () => {
    const open = { allowLoopback: true, allowPrivate: true };
    for (const address of ['::127.0.0.1', '::7f00:1', '::8.8.8.8', '::ffff:0:127.0.0.1', '::ffff:0:8.8.8.8', '64:ff9b::127.0.0.1', '64:ff9b::8.8.8.8', '64:ff9b:1::a00:1', '2002:7f00:1::1', '2001:0:7f00:1::1']) {
      expect(addressKind(address), address).toBe('reserved');
      expect(refusal(address, open), address).toMatch(new RegExp(`^${address.replace(/\./g, '\\.')} is a reserved address \\((ipv4Compatible|rfc6145|rfc6052|6to4|teredo)\\)$`));
    }
    // An IPv4-mapped address is its IPv4 address.
    expect(refusal('::ffff:10.0.0.1', strict)).toBe('::ffff:10.0.0.1 is a private address (private)');
    expect(refusal('::ffff:8.8.8.8', strict)).toBeUndefined();
  });

  it('refuses non-public addresses unless a flag allows them', () => {
    expect(refusal('127.0.0.1', strict)).toMatch(/loopback/);
    expect(refusal('127.0.0.1', loopback)).toBeUndefined();
    expect(refusal('10.0.0.1', loopback)).toMatch(/private/);
    expect(refusal('10.0.0.1', { allowLoopback: false, allowPrivate: true })).toBeUndefined();
    expect(refusal('169.254.169.254', { allowLoopback: true, allowPrivate: true })).toBeUndefined();
    expect(refusal('0.0.0.0', { allowLoopback: true, allowPrivate: true })).toMatch(/reserved/);
    expect(refusal('8.8.8.8', strict)).toBeUndefined();
  });

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

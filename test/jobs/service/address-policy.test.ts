import { describe, expect, it } from 'vitest';
import { addressKind, addressRange, refusal } from '../../../src/jobs/service/address-policy.ts';

const strict = { allowLoopback: false, allowPrivate: false };
const loopback = { allowLoopback: true, allowPrivate: false };
const everything = { allowLoopback: true, allowPrivate: true };

describe('addressKind', () => {
  it('sorts IPv4 addresses into loopback, private, link-local, reserved and public', () => {
    const kinds: Array<[string, string | undefined]> = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.20.30.40', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.10', 'private'],
      ['100.64.0.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['0.0.0.0', 'reserved'],
      ['224.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['93.184.215.14', undefined],
      ['172.32.0.1', undefined],
      ['100.128.0.1', undefined],
      ['8.8.8.8', undefined],
    ];
    expect(kinds.map(([a]) => [a, addressKind(a)])).toEqual(kinds);
  });

  it('sorts IPv6 addresses the same way, brackets or not', () => {
    const kinds: Array<[string, string | undefined]> = [
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['fd12::1', 'private'],
      ['fc00::1', 'private'],
      ['fe80::1', 'link-local'],
      ['::', 'reserved'],
      ['ff02::1', 'reserved'],
      ['2606:4700::1111', undefined],
    ];
    expect(kinds.map(([a]) => [a, addressKind(a)])).toEqual(kinds);
  });

  it('judges an IPv4-mapped IPv6 address as its IPv4 address, in any spelling', () => {
    for (const mapped of ['::ffff:127.0.0.1', '::FFFF:7f00:1', '[::ffff:127.0.0.1]', '0:0:0:0:0:ffff:127.0.0.1', '::ffff:7f00:0001']) {
      expect(addressKind(mapped), mapped).toBe('loopback');
    }
    expect(addressKind('::ffff:a9fe:a9fe')).toBe('link-local');
    expect(addressKind('::ffff:8.8.8.8')).toBeUndefined();
  });
});

describe('addressRange', () => {
  it("names the range of an address, and nothing for what is not one", () => {
    expect(addressRange('8.8.8.8')).toBe('unicast');
    expect(addressRange('10.0.0.1')).toBe('private');
    expect(addressRange('::7f00:1')).toBe('ipv4Compatible');
    expect(addressRange('localhost')).toBeUndefined();
    expect(addressRange('999.1.1.1')).toBeUndefined();
  });
});

describe('refusal', () => {
  it('refuses non-public addresses unless a flag allows them, naming the kind and range', () => {
    expect(refusal('127.0.0.1', strict)).toBe('127.0.0.1 is a loopback address (loopback)');
    expect(refusal('127.0.0.1', loopback)).toBeUndefined();
    expect(refusal('::ffff:127.0.0.1', loopback)).toBeUndefined();
    expect(refusal('10.0.0.1', loopback)).toBe('10.0.0.1 is a private address (private)');
    expect(refusal('100.64.0.1', loopback)).toBe('100.64.0.1 is a private address (carrierGradeNat)');
    expect(refusal('10.0.0.1', { allowLoopback: false, allowPrivate: true })).toBeUndefined();
    expect(refusal('127.0.0.1', { allowLoopback: false, allowPrivate: true })).toBe('127.0.0.1 is a loopback address (loopback)');
    expect(refusal('169.254.169.254', loopback)).toBe('169.254.169.254 is a link-local address (linkLocal)');
    expect(refusal('169.254.169.254', everything)).toBeUndefined();
  });

  it('refuses IPv4 carried or translated in IPv6, whatever flag is set', () => {
    for (const address of ['::127.0.0.1', '::7f00:1', '::8.8.8.8', '::ffff:0:127.0.0.1', '::ffff:0:8.8.8.8', '64:ff9b::127.0.0.1', '64:ff9b::8.8.8.8', '64:ff9b:1::a00:1', '2002:7f00:1::1', '2001:0:7f00:1::1']) {
      expect(addressKind(address), address).toBe('reserved');
      expect(refusal(address, everything), address).toMatch(new RegExp(`^${address.replace(/\./g, '\\.')} is a reserved address \\((ipv4Compatible|rfc6145|rfc6052|6to4|teredo)\\)$`));
    }
    expect(refusal('::ffff:10.0.0.1', strict)).toBe('::ffff:10.0.0.1 is a private address (private)');
    expect(refusal('::ffff:8.8.8.8', strict)).toBeUndefined();
  });

  it('always refuses reserved addresses, and what is not an address at all', () => {
    expect(refusal('0.0.0.0', everything)).toMatch(/^0\.0\.0\.0 is a reserved address \(/);
    expect(refusal('::', everything)).toMatch(/^:: is a reserved address \(/);
    expect(refusal('localhost', everything)).toBe('"localhost" is not an IP address');
    expect(refusal('999.1.1.1', everything)).toBe('"999.1.1.1" is not an IP address');
  });

  it('lets public addresses through', () => {
    expect(refusal('8.8.8.8', strict)).toBeUndefined();
    expect(refusal('2606:4700::1111', strict)).toBeUndefined();
  });
});

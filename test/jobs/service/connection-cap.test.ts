import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../src/jobs/service/connection-cap.ts';

describe('addressKey', () => {
  it('counts an IPv4 client by its address, written either way', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, which it may pick any address from', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('keeps anything else as it is', () => {
    expect(addressKey(undefined)).toBe('');
    expect(addressKey('not an address')).toBe('not an address');
  });
});

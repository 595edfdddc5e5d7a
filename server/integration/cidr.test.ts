import { invalidCidr, ipAllowed } from './cidr';

describe('the API keys IP allowlist', () => {
  test('accepts addresses and CIDR blocks of either family; names the first bad entry', () => {
    expect(invalidCidr(['10.0.0.0/8', '192.168.1.7', '2001:db8::/32', '::1'])).toBeUndefined();
    for (const bad of ['10.0.0.0/33', '2001:db8::/129', '127.1', '10.0.0.0/8/1', 'ejemplo.com', '10.0.0.0/', '10.0.0.0/x']) {
      expect([bad, invalidCidr(['10.0.0.0/8', bad])]).toEqual([bad, bad]);
    }
  });

  test('an empty list allows every address; otherwise only the blocks listed', () => {
    expect(ipAllowed([], '203.0.113.9')).toBe(true);
    expect(ipAllowed(['10.0.0.0/8'], '10.200.1.1')).toBe(true);
    expect(ipAllowed(['10.0.0.0/8'], '11.0.0.1')).toBe(false);
    expect(ipAllowed(['192.168.1.7'], '192.168.1.7')).toBe(true);
    expect(ipAllowed(['192.168.1.7'], '192.168.1.8')).toBe(false);
    expect(ipAllowed(['2001:db8::/32'], '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(['2001:db8::/32'], '10.0.0.1')).toBe(false);
    expect(ipAllowed(['10.0.0.0/8'], undefined)).toBe(false);
  });

  test('an IPv4 client seen by a dual-stack socket (::ffff:a.b.c.d) is compared as IPv4', () => {
    expect(ipAllowed(['127.0.0.0/8'], '::ffff:127.0.0.1')).toBe(true);
    expect(ipAllowed(['10.0.0.0/8'], '::ffff:127.0.0.1')).toBe(false);
  });
});

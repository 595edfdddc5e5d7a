import { blockedReason, checkedAddresses, pinnedLookup, urlHost } from './outboundGuard';
import { nextAttemptAt, RETRY_DELAYS_MS } from './webhookDispatcher';

describe('the outbound guard: which addresses a webhook may call', () => {
  // One or more refused examples of every range, at its edges where they matter.
  test.each([
    // IPv4 special-purpose registry
    ['0.0.0.0', 'sin especificar'],
    ['0.255.255.255', 'sin especificar'],
    ['10.0.0.1', 'privada'],
    ['10.255.255.255', 'privada'],
    ['100.64.0.1', 'compartida (CGNAT)'],
    ['100.127.255.255', 'compartida (CGNAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'privada'],
    ['172.31.255.255', 'privada'],
    ['192.0.0.1', 'reservada'],
    ['192.0.0.9', 'reservada'],
    ['192.0.0.170', 'reservada'],
    ['192.0.2.1', 'documentación'],
    ['192.31.196.1', 'reservada'],
    ['192.52.193.1', 'reservada'],
    ['192.88.99.1', 'reservada'],
    ['192.168.1.1', 'privada'],
    ['192.175.48.1', 'reservada'],
    ['198.18.0.1', 'pruebas de rendimiento'],
    ['198.19.255.255', 'pruebas de rendimiento'],
    ['198.51.100.7', 'documentación'],
    ['203.0.113.7', 'documentación'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reservada'],
    ['255.255.255.254', 'reservada'],
    ['255.255.255.255', 'difusión'],
    // IPv6 special-purpose registry and the non-global blocks
    ['::', 'sin especificar'],
    ['::1', 'loopback'],
    ['64:ff9b:1::1', 'reservada'],
    ['64:ff9b:1:ffff::8.8.8.8', 'reservada'],
    ['100::1', 'descarte'],
    ['100::ffff:ffff:ffff:ffff', 'descarte'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'túnel Teredo'],
    ['2001:1::1', 'reservada'],
    ['2001:2::1', 'pruebas de rendimiento'],
    ['2001:3::1', 'reservada'],
    ['2001:10::1', 'reservada'],
    ['2001:20::1', 'reservada'],
    ['2001:1ff:ffff::1', 'reservada'],
    ['2001:db8::1', 'documentación'],
    ['2001:db8:ffff::1', 'documentación'],
    ['2002:7f00:1::1', 'túnel 6to4'],
    ['2002:808:808::1', 'túnel 6to4'],
    ['2620:4f:8000::1', 'reservada'],
    ['3fff::1', 'documentación'],
    ['3fff:fff::1', 'documentación'],
    ['5f00::1', 'reservada'],
    ['fc00::1', 'privada (ULA)'],
    ['fd12:3456::1', 'privada (ULA)'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    // outside 2000::/3, the global unicast space
    ['::2:0:0:1', 'reservada'],
    ['4000::1', 'reservada'],
    ['8000::1', 'reservada'],
    ['e000::1', 'reservada'],
    ['::ffff:0:808:808', 'reservada'],
    // IPv4-mapped and NAT64: judged as the IPv4 address they carry
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'privada'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:100.64.0.1', 'compartida (CGNAT)'],
    ['::ffff:0.0.0.0', 'sin especificar'],
    ['::ffff:255.255.255.255', 'difusión'],
    ['64:ff9b::192.168.0.1', 'privada'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    // IPv4-compatible (::/96, deprecated): refused, named after what it carries when that is refused too
    ['::a9fe:a9fe', 'link-local'],
    ['::169.254.169.254', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::a00:1', 'privada'],
    ['::2', 'sin especificar'],
    ['::808:808', 'compatible con IPv4 (obsoleta)'],
    ['::8.8.8.8', 'compatible con IPv4 (obsoleta)'],
    ['::ffff:ffff', 'difusión'],
    // not an IP address
    ['localhost', 'no es una dirección IP'],
    ['', 'no es una dirección IP'],
    ['0x7f.1', 'no es una dirección IP'],
    ['127.1', 'no es una dirección IP'],
    ['2130706433', 'no es una dirección IP'],
  ] as [string, string][])('%s: %s', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  // Public addresses, including those right beside a refused range.
  test.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '1.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.1',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.1',
    '191.255.255.255',
    '192.0.1.1',
    '192.0.3.1',
    '192.88.98.1',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '198.51.101.1',
    '203.0.112.1',
    '203.0.114.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '2001:200::1',
    '2001:db7:ffff::1',
    '2003::1',
    '2620:4f:8001::1',
    '3ffe::1',
    '3fff:1000::1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b::1.1.1.1',
  ])('%s is public', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });

  test('a name is refused when any of its addresses is private; allowed with private targets', async () => {
    const both = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '::1', family: 6 as const },
    ];
    await expect(checkedAddresses('hook.example', false, both)).rejects.toThrow('Destino no permitido: ::1 (loopback)');
    await expect(checkedAddresses('hook.example', true, both)).resolves.toHaveLength(2);
    await expect(checkedAddresses('hook.example', false, async () => [{ address: '93.184.216.34', family: 4 }])).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
  });

  test('an IPv4-compatible literal in a URL is refused like the address it carries (no resolver involved)', async () => {
    const host = urlHost(new URL('https://[::a9fe:a9fe]/latest/meta-data/'));
    await expect(checkedAddresses(host, false)).rejects.toThrow('Destino no permitido: ::a9fe:a9fe (link-local)');
    await expect(checkedAddresses(urlHost(new URL('https://[::169.254.169.254]/')), false)).rejects.toThrow('(link-local)');
    await expect(checkedAddresses(urlHost(new URL('https://[::ffff:169.254.169.254]/')), false)).rejects.toThrow('(link-local)');
    await expect(checkedAddresses(urlHost(new URL('https://[::808:808]/')), false)).rejects.toThrow('(compatible con IPv4 (obsoleta))');
    await expect(checkedAddresses(urlHost(new URL('https://[2606:4700:4700::1111]/')), false)).resolves.toEqual([
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
  });

  test('the pinned lookup answers only the checked addresses, in either callback form', () => {
    const lookup = pinnedLookup([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    const one = jest.fn();
    lookup('anything', { family: 6 }, one);
    expect(one).toHaveBeenCalledWith(null, '2606:2800:220:1::1', 6);
    const all = jest.fn();
    lookup('anything', { all: true }, all);
    expect(all).toHaveBeenCalledWith(null, [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });
});

describe('retry backoff', () => {
  const event = new Date('2026-03-01T10:00:00Z');
  const at = (ms: number) => new Date(event.getTime() + ms);

  test('5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, then 4 h again (no jitter at 0.5)', () => {
    const steps = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => nextAttemptAt(n, event, event, () => 0.5)!.getTime() - event.getTime());
    expect(steps).toEqual([...RETRY_DELAYS_MS, 14_400_000, 14_400_000]);
  });

  test('jitter moves each wait by at most 20 % either way', () => {
    expect(nextAttemptAt(1, event, event, () => 0)!.getTime() - event.getTime()).toBe(4_000);
    expect(nextAttemptAt(1, event, event, () => 1)!.getTime() - event.getTime()).toBe(6_000);
  });

  test('never past 24 h after the event (one last attempt then); after that the delivery has failed', () => {
    expect(nextAttemptAt(8, event, at(22 * 3_600_000), () => 0.5)).toEqual(at(24 * 3_600_000));
    expect(nextAttemptAt(9, event, at(24 * 3_600_000), () => 0.5)).toBeNull();
  });
});

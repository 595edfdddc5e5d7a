import { blockedReason, checkedAddresses, pinnedLookup } from './outboundGuard';
import { nextAttemptAt, RETRY_DELAYS_MS } from './webhookDispatcher';

describe('the outbound guard: which addresses a webhook may call', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'privada'],
    ['172.16.0.1', 'privada'],
    ['172.31.255.255', 'privada'],
    ['192.168.1.1', 'privada'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'compartida (CGNAT)'],
    ['0.0.0.0', 'sin especificar'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'difusión'],
    ['240.0.0.1', 'reservada'],
    ['192.0.2.1', 'reservada'],
    ['198.18.0.1', 'reservada'],
    ['::', 'sin especificar'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'privada (ULA)'],
    ['fc00::1', 'privada (ULA)'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'privada'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::192.168.0.1', 'privada'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::8.8.8.8', null],
    ['2002:7f00:1::1', 'reservada'],
    ['2001:db8::1', 'reservada'],
    ['100::1', 'descarte'],
    ['fec0::1', 'site-local'],
    ['localhost', 'no es una dirección IP'],
  ] as [string, string | null][])('%s: %s', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  test.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
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

import { simField } from '../../shared/contracts/agent';
import { imeiField, luhnValid } from '../../shared/contracts/devices';
import { prng } from '../seed/prng';
import {
  CARRIERS,
  backoffMs,
  between,
  chance,
  generateIccid,
  generateIdentity,
  generateImei,
  generateSim,
  jittered,
  nextBattery,
  parseRate,
  retryAfterMs,
} from './random';

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });

describe('rates', () => {
  test.each([
    ['5%', 0.05],
    ['0.5 %', 0.005],
    ['1,5%', 0.015],
    ['0.05', 0.05],
    ['.2', 0.2],
    ['0', 0],
    ['100%', 1],
    ['1', 1],
  ])('%s → %d', (text, value) => {
    expect(parseRate(text)).toBeCloseTo(value, 10);
  });

  test.each(['', '%', '-1%', '101%', '1.5', 'cinco', '5%%', '5 por ciento'])('%j is not a rate', (text) => {
    expect(parseRate(text)).toBeNull();
  });

  test('chance: 0 never and 1 always; in between, the seeded draws follow the rate', () => {
    const rnd = prng(1);
    const draws = (rate: number) => Array.from({ length: 10_000 }, () => chance(rnd, rate)).filter(Boolean).length;
    expect(draws(0)).toBe(0);
    expect(draws(1)).toBe(10_000);
    const five = draws(0.05);
    expect(five).toBeGreaterThan(400);
    expect(five).toBeLessThan(600);
  });

  test('the same seed decides the same way', () => {
    const a = prng(42);
    const b = prng(42);
    expect(Array.from({ length: 50 }, () => chance(a, 0.3))).toEqual(Array.from({ length: 50 }, () => chance(b, 0.3)));
  });
});

describe('delays', () => {
  test('between stays inside the range, both ends included, whatever the order', () => {
    const rnd = prng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) {
      const ms = between(rnd, [200, 205]);
      expect(ms).toBeGreaterThanOrEqual(200);
      expect(ms).toBeLessThanOrEqual(205);
      seen.add(ms);
    }
    expect([...seen].sort()).toEqual([200, 201, 202, 203, 204, 205]);
    expect(between(rnd, [50, 50])).toBe(50);
    const swapped = between(rnd, [300, 100]);
    expect(swapped).toBeGreaterThanOrEqual(100);
    expect(swapped).toBeLessThanOrEqual(300);
  });

  test('jitter spreads around the value and is never negative', () => {
    const rnd = prng(3);
    for (let i = 0; i < 1_000; i++) {
      const ms = jittered(rnd, 30_000, 0.2);
      expect(ms).toBeGreaterThanOrEqual(24_000);
      expect(ms).toBeLessThanOrEqual(36_000);
    }
    expect(jittered(rnd, 100, 3)).toBeGreaterThanOrEqual(0);
  });

  test('back-off doubles per failure up to its cap', () => {
    const low = () => 0; // the lower half of each step
    const high = () => 0.999999;
    expect([1, 2, 3, 4].map((n) => backoffMs(low, n, [1_000, 30_000]))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(backoffMs(high, 2, [1_000, 30_000])).toBe(2_000);
    expect(backoffMs(high, 50, [1_000, 30_000])).toBe(30_000);
    expect(backoffMs(low, 50, [1_000, 30_000])).toBe(15_000);
  });

  test('Retry-After in seconds or as a date, else the RateLimit reset, else the fallback; bounded', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': '7' }), now)).toBe(7_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:12 GMT' }), now)).toBe(12_000);
    expect(retryAfterMs(headers({ ratelimit: 'limit=120, remaining=0, reset=42' }), now)).toBe(42_000);
    expect(retryAfterMs(headers({}), now, 5_000)).toBe(5_000);
    expect(retryAfterMs(headers({ 'retry-after': '0' }), now)).toBe(1_000);
    expect(retryAfterMs(headers({ 'retry-after': '3600' }), now, 5_000, 60_000)).toBe(60_000);
  });
});

describe('identities', () => {
  test('IMEIs have 15 digits, the simulator prefix and a valid Luhn digit; the portal schema takes them', () => {
    const rnd = prng(9);
    for (let i = 0; i < 500; i++) {
      const imei = generateImei(rnd);
      expect(imei).toMatch(/^3599\d{11}$/);
      expect(luhnValid(imei)).toBe(true);
      expect(imeiField('imei').safeParse(imei).success).toBe(true);
    }
    expect(generateImei(rnd, '86')).toMatch(/^86\d{13}$/);
  });

  test('ICCIDs are Mexican (8952), carry the carrier digits and a Luhn digit, and pass the agent schema', () => {
    const rnd = prng(5);
    for (const carrier of CARRIERS) {
      const iccid = generateIccid(rnd, carrier);
      expect(iccid).toMatch(new RegExp(`^8952${carrier.issuer}\\d{13}$`));
      expect(luhnValid(iccid)).toBe(true);
      expect(simField.safeParse({ iccid, carrier: carrier.name }).success).toBe(true);
    }
  });

  test('SIMs come from Telcel, AT&T, Movistar and Bait, Telcel the most', () => {
    const rnd = prng(8);
    const counts = new Map<string, number>();
    for (let i = 0; i < 5_000; i++) {
      const { carrier } = generateSim(rnd);
      counts.set(carrier!, (counts.get(carrier!) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['AT&T', 'Bait', 'Movistar', 'Telcel']);
    expect(Math.max(...counts.values())).toBe(counts.get('Telcel'));
  });

  test('phones have a SIM, TVs none; the type can be forced; a seed repeats the device', () => {
    const rnd = prng(12);
    const fleet = Array.from({ length: 1_000 }, () => generateIdentity(rnd));
    const tvs = fleet.filter((d) => d.deviceType === 2);
    expect(tvs.length).toBeGreaterThan(100);
    expect(tvs.length).toBeLessThan(300);
    expect(tvs.every((d) => d.sim === null)).toBe(true);
    expect(fleet.filter((d) => d.deviceType === 1).every((d) => d.sim !== null && d.brand.length > 0)).toBe(true);
    expect(generateIdentity(rnd, 1).deviceType).toBe(1);
    expect(generateIdentity(rnd, 2)).toMatchObject({ deviceType: 2, sim: null });
    expect(generateIdentity(prng(99))).toEqual(generateIdentity(prng(99)));
  });

  test('the battery drifts within 5–100 and recharges when nearly empty', () => {
    const rnd = prng(4);
    let level = 50;
    for (let i = 0; i < 2_000; i++) {
      level = nextBattery(rnd, level);
      expect(level).toBeGreaterThanOrEqual(5);
      expect(level).toBeLessThanOrEqual(100);
    }
    expect(nextBattery(() => 0, 6)).toBe(100);
  });
});

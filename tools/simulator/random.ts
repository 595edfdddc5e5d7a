/**
 * The simulator's pure helpers: rates, delays, back-off, and the identity of a virtual device
 * (IMEI with its Luhn digit, serial, brand and model, a Mexican SIM). Every random choice takes
 * the generator as an argument (tools/seed/prng.ts when it must repeat), so a seed gives the
 * same fleet and the same decisions.
 */
import type { DeviceTypeCode } from '../../shared/constants/domain';
import type { Sim } from '../../shared/contracts/agent';
import { luhnCheckDigit } from '../../shared/contracts/devices';

/** A generator of numbers in [0, 1). */
export type Rnd = () => number;

/** An inclusive range of milliseconds. */
export type MsRange = readonly [number, number];

/**
 * A rate written by a person: '5%', '0.5 %', '0.05' or '1' (a fraction). Null when it is not a
 * number between 0 and 1 (0 % and 100 %).
 */
export function parseRate(text: string): number | null {
  const t = text.trim().replace(',', '.');
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*(%?)$/.exec(t);
  if (!m) return null;
  const value = Number(m[1]) / (m[2] === '%' ? 100 : 1);
  return value >= 0 && value <= 1 ? value : null;
}

/** True with probability `rate` (0: never, 1: always). */
export function chance(rnd: Rnd, rate: number): boolean {
  if (rate <= 0) return false;
  if (rate >= 1) return true;
  return rnd() < rate;
}

/** A whole number of milliseconds in [min, max]. */
export function between(rnd: Rnd, [min, max]: MsRange): number {
  const lo = Math.min(min, max);
  const hi = Math.max(min, max);
  return lo + Math.floor(rnd() * (hi - lo + 1));
}

/** `ms` spread by ±`spread` (0.2: ±20 %), never negative. */
export function jittered(rnd: Rnd, ms: number, spread = 0.2): number {
  return Math.max(0, Math.round(ms * (1 - spread + 2 * spread * rnd())));
}

/** Exponential back-off after `attempt` failures in a row (1, 2…), capped, with full jitter above half. */
export function backoffMs(rnd: Rnd, attempt: number, [base, cap]: MsRange = [1_000, 30_000]): number {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, Math.min(attempt - 1, 20)));
  return Math.round(ceiling / 2 + (rnd() * ceiling) / 2);
}

/**
 * How long a 429 asks to wait: `Retry-After` in seconds or as an HTTP date, else the `reset` of a
 * draft-7 `RateLimit` header, else `fallbackMs`; always between 1 s and `maxMs`.
 */
export function retryAfterMs(headers: { get(name: string): string | null }, now: number, fallbackMs = 5_000, maxMs = 60_000): number {
  const clamp = (ms: number) => Math.min(maxMs, Math.max(1_000, Math.round(ms)));
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return clamp(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return clamp(at - now);
  }
  const reset = /\breset=(\d+)/.exec(headers.get('ratelimit') ?? '')?.[1];
  if (reset !== undefined) return clamp(Number(reset) * 1000);
  return clamp(fallbackMs);
}

const digits = (rnd: Rnd, n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
const ALNUM = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
const alnum = (rnd: Rnd, n: number) => Array.from({ length: n }, () => ALNUM[Math.floor(rnd() * ALNUM.length)]).join('');
export const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

/**
 * A 15-digit IMEI with a valid Luhn check digit. The simulator's devices start with '3599'
 * (the demo fleet's with '35' followed by other digits, or '86'), so they are easy to tell apart.
 */
export function generateImei(rnd: Rnd, prefix = '3599'): string {
  const first14 = `${prefix}${digits(rnd, 14 - prefix.length)}`;
  return `${first14}${luhnCheckDigit(first14)}`;
}

/** The Mexican carriers a SIM may belong to, with their share of the simulated fleet. */
export const CARRIERS: readonly { name: string; issuer: string; weight: number }[] = [
  { name: 'Telcel', issuer: '02', weight: 0.6 },
  { name: 'AT&T', issuer: '01', weight: 0.17 },
  { name: 'Movistar', issuer: '03', weight: 0.13 },
  { name: 'Bait', issuer: '07', weight: 0.1 },
];

/** A carrier chosen by its share. */
export function pickCarrier(rnd: Rnd): (typeof CARRIERS)[number] {
  let r = rnd();
  for (const c of CARRIERS) {
    r -= c.weight;
    if (r < 0) return c;
  }
  return CARRIERS[0]!;
}

/**
 * A 19-digit ICCID of a Mexican SIM: 89 (telecommunications), 52 (Mexico), the carrier's
 * issuer digits, 12 account digits and a Luhn check digit.
 */
export function generateIccid(rnd: Rnd, carrier: (typeof CARRIERS)[number]): string {
  const first18 = `8952${carrier.issuer}${digits(rnd, 12)}`;
  return `${first18}${luhnCheckDigit(first18)}`;
}

/** A SIM of a carrier chosen by its share. */
export function generateSim(rnd: Rnd): Sim {
  const carrier = pickCarrier(rnd);
  return { iccid: generateIccid(rnd, carrier), carrier: carrier.name };
}

const PHONES: readonly { brand: string; models: readonly string[]; serial: string }[] = [
  { brand: 'Samsung', models: ['Galaxy A05s', 'Galaxy A15', 'Galaxy A25 5G', 'Galaxy A35 5G'], serial: 'R58' },
  { brand: 'Motorola', models: ['Moto E13', 'Moto G24', 'Moto G54 5G'], serial: 'ZY2' },
  { brand: 'Xiaomi', models: ['Redmi 13C', 'Redmi Note 13', 'POCO X6'], serial: 'XM7' },
  { brand: 'Oppo', models: ['A18', 'A38', 'A58'], serial: 'OP4' },
  { brand: 'Honor', models: ['X6a', 'X7b', 'X8b'], serial: 'HN9' },
];
const TVS: readonly { brand: string; models: readonly string[]; serial: string }[] = [
  { brand: 'Hisense', models: ['43A6K', '50A6K', '55U6K'], serial: 'HS1' },
  { brand: 'TCL', models: ['43S5400', '50P755', '55C655'], serial: 'TC5' },
  { brand: 'Samsung', models: ['UN43CU7000', 'UN50CU7000'], serial: 'SM0' },
];

/** What a virtual device says of itself when it enrolls. */
export interface DeviceIdentity {
  imei: string;
  serial: string;
  deviceType: DeviceTypeCode;
  brand: string;
  model: string;
  osVersion: string;
  agentVersion: string;
  /** TVs have no SIM. */
  sim: Sim | null;
}

/** Share of TVs among the generated devices. */
export const TV_SHARE = 0.2;

/** One virtual device: a smartphone with a SIM (≈80 %) or a TV without one. */
export function generateIdentity(rnd: Rnd, type?: DeviceTypeCode): DeviceIdentity {
  const tv = type === undefined ? rnd() < TV_SHARE : type === 2;
  const maker = pick(rnd, tv ? TVS : PHONES);
  return {
    imei: generateImei(rnd),
    serial: `${maker.serial}${alnum(rnd, tv ? 9 : 8)}`,
    deviceType: tv ? 2 : 1,
    brand: maker.brand,
    model: pick(rnd, maker.models),
    osVersion: tv ? pick(rnd, ['Android TV 11', 'Google TV 12']) : pick(rnd, ['Android 13', 'Android 14', 'Android 15']),
    agentVersion: tv ? '1.8.0' : '3.4.1',
    sim: tv ? null : generateSim(rnd),
  };
}

/** A battery level that drifts by a few points per check-in, within 5–100. */
export function nextBattery(rnd: Rnd, level: number): number {
  const next = level + Math.round((rnd() - 0.6) * 6);
  return next < 5 ? 100 : Math.min(100, next);
}

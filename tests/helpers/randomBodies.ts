import { prng } from '../../tools/seed/prng';

const STRINGS = [
  '',
  ' ',
  'a',
  'ñandú',
  '\u0000',
  'x'.repeat(300),
  '<script>',
  "'; DROP TABLE admins; --",
  '/dashboard',
  '%_\\',
  '\ud800',
  '1',
  'true',
  'null',
  'a@b',
  'ana@demo.local',
];
const NUMBERS = [0, -1, 1, 2, 3, 1.5, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER, 1e308, 14, 99];

/**
 * Random JSON bodies for a write route: mostly objects with the route's own field names holding
 * values of random types (nested values, strings with NUL or lone surrogates, huge numbers…).
 */
export function randomBodies(fields: readonly string[], count: number, seed = 20260): unknown[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const value = (depth: number): unknown => {
    switch (Math.floor(rnd() * (depth > 1 ? 5 : 7))) {
      case 0:
        return pick(STRINGS);
      case 1:
        return pick(NUMBERS);
      case 2:
        return pick([true, false, null]);
      case 3:
        return Array.from({ length: Math.floor(rnd() * 4) }, () => (rnd() < 0.5 ? pick(STRINGS) : pick(NUMBERS)));
      case 4:
        return String(Math.floor(rnd() * 1e6));
      case 5:
        return Array.from({ length: Math.floor(rnd() * 3) }, () => value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 3) }, () => [pick([...fields, 'x', '__proto__']), value(depth + 1)]));
    }
  };
  return Array.from({ length: count }, () => {
    if (rnd() < 0.1) return value(0);
    const body: Record<string, unknown> = {};
    for (const f of fields) if (rnd() < 0.8) body[f] = value(0);
    if (rnd() < 0.2) body[pick(['extra', 'id', 'enabled'])] = value(1);
    return body;
  });
}

/** Sends any JSON value as the body (supertest sends only objects and strings as such). */
export function sendJson<T extends { send(body: string | object): T; set(name: string, value: string): T }>(call: T, body: unknown): T {
  return body !== null && typeof body === 'object' ? call.send(body) : call.set('Content-Type', 'application/json').send(JSON.stringify(body));
}

/**
 * The value the server reads from what sendJson sends for `body`: JSON drops a key whose value
 * is undefined and writes NaN as null, so a body invalid as a JavaScript value may be valid once
 * sent (`{ values: { foo: undefined } }` arrives as `{ values: {} }`). Judge generated bodies by this.
 */
export function asSent(body: unknown): unknown {
  const text = JSON.stringify(body);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

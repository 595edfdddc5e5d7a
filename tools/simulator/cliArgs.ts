/**
 * The flags of `npm run simulate` (node:util parseArgs), checked and bounded, with Spanish
 * messages: a loopback --url unless --allow-remote, at most MAX_DEVICES devices and
 * MAX_DURATION_SECONDS of run, rates as percentages.
 */
import { parseArgs as parseFlags } from 'node:util';
import { CHECKIN_WAIT_MAX_SECONDS } from '../../shared/contracts/agent';
import { DEFAULT_ADMIN_EMAIL } from '../../server/db/bootstrap';
import { CLI_TEXT, PAYMENT_TEXT } from './labels';
import { DEFAULT_PAYMENT_RATES, parsePaymentRates, type PaymentRates } from './payments';
import { parseRate } from './random';

export const MAX_DEVICES = 20_000;
export const MAX_DURATION_SECONDS = 3_600;
const MAX_DELAY_MS = 60_000;

export interface SimulateArgs {
  url: string;
  devices: number;
  durationSeconds: number;
  /** Chance per check-in of going offline for a while. */
  offline: number;
  /** Chance per command of rejecting it. */
  reject: number;
  /** Chance per check-in of a new SIM (smartphones). */
  simChange: number;
  /** Seconds of long poll per check-in. */
  wait: number;
  /** How long carrying out a command takes (ms). */
  delayMs: [number, number];
  json: boolean;
  email: string;
  password: string | null;
  existing: boolean;
  allowRemote: boolean;
  /** Register devices and play the scenario through the portal (false: agents only, with --token). */
  scenario: boolean;
  token: string | null;
  seed: number | null;
  /** Customers who pay through the integration API (null: no payments). */
  payments: PaymentRates | null;
  /** The integration API key the payments are posted with. */
  apiKey: string | null;
}

export type ParsedArgs = { ok: true; help: true } | { ok: true; help: false; args: SimulateArgs } | { ok: false; error: string };

const OPTIONS = {
  url: { type: 'string' },
  devices: { type: 'string', default: '50' },
  duration: { type: 'string', default: '120' },
  offline: { type: 'string', default: '0%' },
  reject: { type: 'string', default: '0%' },
  'sim-change': { type: 'string', default: '0%' },
  wait: { type: 'string', default: '20' },
  delay: { type: 'string', default: '200-1500' },
  json: { type: 'boolean', default: false },
  email: { type: 'string' },
  password: { type: 'string' },
  existing: { type: 'boolean', default: false },
  'allow-remote': { type: 'boolean', default: false },
  'no-scenario': { type: 'boolean', default: false },
  token: { type: 'string' },
  seed: { type: 'string' },
  payments: { type: 'string' },
  'api-key': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Whether a URL's host is this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function int(text: string, flag: string, min: number, max: number): number | string {
  const t = text.trim();
  if (!/^\d{1,9}$/.test(t)) return CLI_TEXT.intRange(flag, min, max);
  const n = Number(t);
  return n < min || n > max ? CLI_TEXT.intRange(flag, min, max) : n;
}

/** The flag of a node:util parseArgs error, in Spanish. */
function flagError(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const name = /'(-{1,2}[^'\s]+)/.exec(err.message ?? '')?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return CLI_TEXT.unknownFlag(`${name} necesita un valor`);
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return CLI_TEXT.unknownFlag(`argumento sin opción ${/'([^']*)'/.exec(err.message ?? '')?.[1] ?? ''}`);
  return CLI_TEXT.unknownFlag(name || (err.message ?? ''));
}

/** `--payments` written without rates (last, or before another flag) takes the default ones. */
const BARE_PAYMENTS = '--payments=default';

/**
 * Parses and checks the flags; `env` gives DEMO_PASSWORD when --password is absent and
 * INTEGRATION_API_KEY when --api-key is.
 */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): ParsedArgs {
  let values: ReturnType<typeof parseFlags<{ args: string[]; options: typeof OPTIONS; strict: true }>>['values'];
  const args = argv.map((a, i) => (a === '--payments' && (i === argv.length - 1 || argv[i + 1]!.startsWith('-')) ? BARE_PAYMENTS : a));
  try {
    values = parseFlags({ args, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (e) {
    return { ok: false, error: flagError(e) };
  }
  if (values.help) return { ok: true, help: true };
  const fail = (error: string): ParsedArgs => ({ ok: false, error });

  if (!values.url) return fail(CLI_TEXT.missingUrl);
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    return fail(CLI_TEXT.badUrl(values.url));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(CLI_TEXT.badUrl(values.url));
  if (!values['allow-remote'] && !isLoopbackHost(url.hostname)) return fail(CLI_TEXT.remoteUrl(url.hostname));

  let payments: PaymentRates | null = null;
  if (values.payments !== undefined) {
    const rates = values.payments === 'default' ? DEFAULT_PAYMENT_RATES : parsePaymentRates(values.payments);
    if (typeof rates === 'string') return fail(rates);
    payments = rates;
  }
  // Without simulated devices only the payments run (against a fleet that is already there: the demo's).
  const devices = int(values.devices, 'devices', 0, MAX_DEVICES);
  if (typeof devices === 'string') return fail(devices);
  if (devices === 0 && !payments) return fail(PAYMENT_TEXT.devicesWithoutPayments);
  const duration = int(values.duration, 'duration', 1, MAX_DURATION_SECONDS);
  if (typeof duration === 'string') return fail(duration);
  const wait = int(values.wait, 'wait', 0, CHECKIN_WAIT_MAX_SECONDS);
  if (typeof wait === 'string') return fail(wait);
  const rates: Record<'offline' | 'reject' | 'sim-change', number> = { offline: 0, reject: 0, 'sim-change': 0 };
  for (const flag of ['offline', 'reject', 'sim-change'] as const) {
    const r = parseRate(values[flag]);
    if (r === null) return fail(CLI_TEXT.rate(flag));
    rates[flag] = r;
  }
  const delay = /^\s*(\d{1,6})\s*-\s*(\d{1,6})\s*$/.exec(values.delay);
  const delayMs: [number, number] = delay ? [Number(delay[1]), Number(delay[2])] : [-1, -1];
  if (!delay || delayMs[0] > delayMs[1] || delayMs[1] > MAX_DELAY_MS) return fail(CLI_TEXT.delay);
  let seed: number | null = null;
  if (values.seed !== undefined) {
    const s = int(values.seed, 'seed', 0, 2 ** 31 - 1);
    if (typeof s === 'string') return fail(s);
    seed = s;
  }

  const scenario = !values['no-scenario'];
  const token = values.token?.trim() || null;
  const password = values.password ?? env.DEMO_PASSWORD ?? null;
  if (!scenario && !token) return fail(CLI_TEXT.tokenWithoutScenario);
  if (!scenario && values.existing) return fail(CLI_TEXT.existingWithoutScenario);
  if (scenario && !password) return fail(CLI_TEXT.missingPassword);
  const apiKey = values['api-key']?.trim() || env.INTEGRATION_API_KEY?.trim() || null;
  if (payments && !apiKey) return fail(PAYMENT_TEXT.missingApiKey);
  if (payments && !password) return fail(PAYMENT_TEXT.missingPassword);

  return {
    ok: true,
    help: false,
    args: {
      url: url.origin + url.pathname.replace(/\/+$/, ''),
      devices,
      durationSeconds: duration,
      offline: rates.offline,
      reject: rates.reject,
      simChange: rates['sim-change'],
      wait,
      delayMs,
      json: values.json,
      email: values.email?.trim() || DEFAULT_ADMIN_EMAIL,
      password,
      existing: values.existing,
      allowRemote: values['allow-remote'],
      scenario,
      token,
      seed,
      payments,
      apiKey,
    },
  };
}

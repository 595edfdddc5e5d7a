/**
 * Customers who pay (`npm run simulate -- --payments`): each credit's customer pays on time, late
 * or never, at the given rates, through the lender's integration API
 * (POST /api/integration/v1/credits/{reference}/payments with an API key), so the collection
 * policy's locks and unlocks happen by themselves. The portfolio is read through the portal API
 * (the simulator's signed-in session): the overdue credits and those due today.
 *
 * - on time: pays what is overdue and the installment due today, within seconds of seeing it;
 * - late: pays what is overdue at a moment drawn between a quarter and 85 % of the run (long
 *   enough for the policy to remind and lock first);
 * - never: pays nothing.
 *
 * A payment's externalId is `sim-<reference>-<paid in cents before it>`: it names the payment that
 * moves the credit on from what it had paid, so a retry after a timeout, or a second simulator
 * reading the same credit, never applies it twice (the API answers the first result again).
 */
import { API_PATHS } from '../../shared/constants/apiPaths';
import type { CreditDetail, CreditList, CreditRow, CreditSummary, PaymentResult } from '../../shared/contracts/credits';
import { formatAmount, parseAmount } from '../../shared/credits';
import { prng } from '../seed/prng';
import type { PortalCall } from './portalApi';
import { PAYMENT_TEXT } from './labels';
import { backoffMs, parseRate, retryAfterMs } from './random';

export const PAYMENT_BEHAVIOURS = ['onTime', 'late', 'never'] as const;
export type PaymentBehaviour = (typeof PAYMENT_BEHAVIOURS)[number];
export type PaymentRates = Record<PaymentBehaviour, number>;

/** A bare `--payments`: most customers pay on time, some late, a few never. */
export const DEFAULT_PAYMENT_RATES: PaymentRates = { onTime: 0.7, late: 0.2, never: 0.1 };
/** The flag's spelling of each behaviour. */
const FLAG_NAMES: Record<string, PaymentBehaviour> = { 'on-time': 'onTime', late: 'late', never: 'never' };

/**
 * `on-time=0.7,late=0.2,never=0.1` (fractions or percentages; a behaviour left out is 0). The
 * rates must add up to 1 (100 %). Answers the rates, or the Spanish error.
 */
export function parsePaymentRates(text: string): PaymentRates | string {
  const rates: PaymentRates = { onTime: 0, late: 0, never: 0 };
  const seen = new Set<string>();
  for (const part of text.split(/[,;]/).map((p) => p.trim())) {
    const m = /^([a-z-]+)\s*[=:]\s*(.+)$/i.exec(part);
    const key = m ? FLAG_NAMES[m[1]!.toLowerCase()] : undefined;
    if (!m || !key || seen.has(key)) return PAYMENT_TEXT.badRates(text);
    const rate = parseRate(m[2]!);
    if (rate === null) return PAYMENT_TEXT.badRates(text);
    seen.add(key);
    rates[key] = rate;
  }
  const sum = rates.onTime + rates.late + rates.never;
  if (Math.abs(sum - 1) > 1e-9) return PAYMENT_TEXT.ratesSum(Math.round(sum * 1000) / 10);
  return rates;
}

/** A 32-bit hash of a reference (FNV-1a), so each customer keeps its behaviour across scans and runs. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The behaviour of a credit's customer: the same for the same reference, rates and seed. */
export function behaviourOf(reference: string, rates: PaymentRates, seed = 0): PaymentBehaviour {
  const r = prng(hash(reference.toLowerCase()) ^ seed)();
  if (r < rates.onTime) return 'onTime';
  if (r < rates.onTime + rates.late) return 'late';
  return 'never';
}

/** A payment's body, as the integration API takes it. */
export interface PaymentPost {
  externalId: string;
  amount: string;
  paidAt: string;
}

/** What the integration API answered: applied (201), applied before (200, the first answer), or refused. */
export type PaymentOutcome =
  { kind: 'applied' | 'replayed'; result: PaymentResult } | { kind: 'refused'; status: number; code: string | null; message: string };

/** The lender's side of the integration API that the simulator uses. */
export interface IntegrationPayments {
  pay(reference: string, body: PaymentPost): Promise<PaymentOutcome>;
}

/**
 * POST …/credits/{reference}/payments with `Authorization: Bearer <key>`. A 429 waits its
 * Retry-After, a network error or a 5xx is retried with the very same body (the externalId makes
 * that safe), up to `attempts` times; any other refusal is answered as such.
 */
export function httpIntegrationPayments(opts: { baseUrl: string; apiKey: string; signal?: AbortSignal; attempts?: number }): IntegrationPayments {
  const base = `${opts.baseUrl.replace(/\/+$/, '')}/api/integration/v1`;
  const attempts = opts.attempts ?? 5;
  const rnd = prng(0x9a7);
  return {
    async pay(reference, body) {
      for (let attempt = 1; ; attempt++) {
        let res: Response;
        try {
          const timeout = AbortSignal.timeout(30_000);
          res = await fetch(`${base}/credits/${encodeURIComponent(reference)}/payments`, {
            method: 'POST',
            headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(body),
            signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
          });
        } catch (e) {
          if (opts.signal?.aborted || attempt >= attempts) throw e;
          await sleep(backoffMs(rnd, attempt, [500, 5_000]), opts.signal);
          continue;
        }
        const parsed = (await res.json().catch(() => null)) as unknown;
        if (res.status === 201 || res.status === 200) return { kind: res.status === 201 ? 'applied' : 'replayed', result: parsed as PaymentResult };
        if ((res.status === 429 || res.status >= 500) && attempt < attempts) {
          await sleep(res.status === 429 ? retryAfterMs(res.headers, Date.now()) : backoffMs(rnd, attempt, [500, 5_000]), opts.signal);
          continue;
        }
        const err = (parsed ?? {}) as { code?: unknown; message?: unknown };
        return {
          kind: 'refused',
          status: res.status,
          code: typeof err.code === 'string' ? err.code : null,
          message: typeof err.message === 'string' ? err.message : `HTTP ${res.status}`,
        };
      }
    },
  };
}

/** What a customer reads of a credit: where it stands and what it has paid. */
export type PayableCredit = Pick<CreditRow, 'reference' | 'state' | 'amountOverdue' | 'nextDueDate' | 'nextDueAmount' | 'paid'>;

/** What the customers see of their credits: the portfolio's date and the credits with something to pay. */
export interface CreditSource {
  /** The company's date today. */
  today(): Promise<string>;
  /** The overdue credits and those with an installment due today. */
  payable(today: string): Promise<PayableCredit[]>;
  /** One credit now (null when it no longer exists). */
  credit(reference: string): Promise<PayableCredit | null>;
}

/** The portfolio through the portal API (GET /v5/credits, /summary, /:reference) of a signed-in session. */
export function portalCreditSource(call: PortalCall): CreditSource {
  const all = async (query: string) => {
    const out: CreditRow[] = [];
    for (let page = 1; ; page++) {
      const list = await call<CreditList>('GET', `${API_PATHS.credits.base}?${query}&perPage=100&page=${page}`);
      out.push(...list.data);
      if (list.data.length < 100) return out;
    }
  };
  return {
    today: async () => (await call<CreditSummary>('GET', API_PATHS.credits.summary())).today,
    async payable(today) {
      const overdue = await all('state=overdue');
      const dueSoon = (await all('dueThisWeek=true&state=current')).filter((c) => c.nextDueDate === today);
      return [...overdue, ...dueSoon];
    },
    async credit(reference) {
      try {
        return await call<CreditDetail>('GET', API_PATHS.credits.one(reference));
      } catch (e) {
        if ((e as { status?: number }).status === 404) return null;
        throw e;
      }
    },
  };
}

/** The amount a customer of `behaviour` pays on a credit today (0: nothing now). */
export function amountDue(c: Omit<PayableCredit, 'reference' | 'paid'>, behaviour: PaymentBehaviour, today: string): number {
  if (behaviour === 'never' || (c.state !== 'overdue' && c.state !== 'current')) return 0;
  const overdue = parseAmount(c.amountOverdue) ?? 0;
  const dueToday = behaviour === 'onTime' && c.nextDueDate === today ? (parseAmount(c.nextDueAmount ?? '0') ?? 0) : 0;
  return overdue + dueToday;
}

export interface PaymentStats {
  /** Customers seen with something to pay, by behaviour. */
  customers: Record<PaymentBehaviour, number>;
  /** Payments the API applied now, by behaviour, and their sum in cents. */
  applied: Record<Exclude<PaymentBehaviour, 'never'>, number>;
  appliedCents: number;
  /** Payments the API had already applied (the same externalId and body). */
  replayed: number;
  /** Payments waiting for their moment (late customers). */
  scheduled: number;
  /** Refusals by `status code`, e.g. '409 PAYMENT_CONFLICT'. */
  refused: Record<string, number>;
  errors: number;
}

export interface PaymentOptions {
  credits: CreditSource;
  api: IntegrationPayments;
  rates: PaymentRates;
  durationMs: number;
  signal?: AbortSignal;
  seed?: number;
  /** How often the portfolio is read again (30 s by default). */
  scanEveryMs?: number;
  /** A Spanish progress line after each scan, and the last one at the end. */
  onProgress?: (line: string) => void;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Runs the customers for `durationMs` (or until `signal` aborts): reads the portfolio every
 * `scanEveryMs`, gives each credit with something to pay its customer's behaviour, and pays
 * through the integration API when the behaviour says. Each payment reads its credit again just
 * before (the amount is what is owed then). Answers the totals.
 */
export async function runPayments(opts: PaymentOptions): Promise<PaymentStats> {
  const { credits, api, rates, durationMs, seed = 0, scanEveryMs = 30_000, onProgress } = opts;
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  const started = Date.now();
  const ends = started + durationMs;
  const rnd = prng(seed ^ 0x5a11);
  const stats: PaymentStats = {
    customers: { onTime: 0, late: 0, never: 0 },
    applied: { onTime: 0, late: 0 },
    appliedCents: 0,
    replayed: 0,
    scheduled: 0,
    refused: {},
    errors: 0,
  };
  const seen = new Set<string>();
  /** Payments to make: credit reference → when and by whom (one at a time per credit). */
  const queue = new Map<string, { at: number; behaviour: Exclude<PaymentBehaviour, 'never'> }>();

  const pay = async (reference: string, behaviour: Exclude<PaymentBehaviour, 'never'>) => {
    const today = await credits.today();
    const credit = await credits.credit(reference);
    const cents = credit ? amountDue(credit, behaviour, today) : 0;
    if (!credit || cents <= 0) return;
    const body: PaymentPost = {
      externalId: `sim-${credit.reference}-${parseAmount(credit.paid) ?? 0}`,
      amount: formatAmount(cents),
      paidAt: new Date(Date.now() - 1_000).toISOString(),
    };
    const outcome = await api.pay(credit.reference, body);
    if (outcome.kind === 'applied') {
      stats.applied[behaviour]++;
      stats.appliedCents += cents;
    } else if (outcome.kind === 'replayed') stats.replayed++;
    else if (outcome.kind === 'refused') {
      const key = `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`;
      stats.refused[key] = (stats.refused[key] ?? 0) + 1;
    }
  };

  const scan = async () => {
    const today = await credits.today();
    for (const c of await credits.payable(today)) {
      const key = c.reference.toLowerCase();
      const behaviour = behaviourOf(c.reference, rates, seed);
      if (!seen.has(key)) {
        seen.add(key);
        stats.customers[behaviour]++;
      }
      if (behaviour === 'never' || queue.has(key) || amountDue(c, behaviour, today) <= 0) continue;
      const now = Date.now();
      const at =
        behaviour === 'onTime'
          ? now + Math.floor(rnd() * Math.min(5_000, durationMs / 20))
          : Math.max(now, started + Math.floor(durationMs * (0.25 + 0.6 * rnd())));
      queue.set(key, { at, behaviour });
    }
  };

  const line = () => PAYMENT_TEXT.progress({ ...stats, scheduled: queue.size, amount: formatAmount(stats.appliedCents) });
  let nextScan = started;
  try {
    while (!signal.aborted && Date.now() < ends) {
      if (Date.now() >= nextScan) {
        try {
          await scan();
        } catch {
          stats.errors++;
        }
        nextScan = Date.now() + scanEveryMs;
        onProgress?.(line());
      }
      const due = [...queue].filter(([, p]) => p.at <= Date.now()).sort(([, a], [, b]) => a.at - b.at);
      for (const [key, p] of due) {
        if (signal.aborted) break;
        queue.delete(key);
        try {
          await pay(key, p.behaviour);
        } catch {
          if (signal.aborted) break;
          stats.errors++;
        }
      }
      const wake = Math.min(nextScan, ends, ...[...queue.values()].map((p) => p.at));
      await sleep(Math.max(10, wake - Date.now()), signal);
    }
  } finally {
    stop.abort();
  }
  stats.scheduled = queue.size;
  onProgress?.(line());
  return stats;
}

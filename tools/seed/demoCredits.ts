/**
 * The demo's credits: the loans behind the demo devices' *Referencia de crédito*. Mostly one device
 * per credit, some a phone and a TV on one; weekly schedules over a year for phones, biweekly or
 * monthly for TVs, starting when the device was sold; the payments a real portfolio has (most
 * customers current, a few percent overdue by bucket, some paid off), each recorded as the
 * lender's system would have posted it. The plan is a pure function of the devices and the seed;
 * the rows go in through the credits domain's bulk import (server/credits importCredits).
 */
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { apiKeyActor } from '../../shared/constants/integration';
import { addDays, buildSchedule, daysBetween, instantAt, todayIn, type Installment, type ScheduleKind } from '../../shared/credits';
import type { Queryable } from '../../server/db/Db';
import { importCredits, type ImportedCredit, type ImportedPayment } from '../../server/credits';
import { prng } from './prng';

/** What the plan reads of a device. */
export interface CreditDevice {
  id: number;
  deviceType: 1 | 2;
  creditReference: string;
  customerName: string;
  createdAt: Date;
  lifecycle: string;
  lockState: string;
  lockType: string | null;
  pendingAction: number | null;
}

/** Where the plan puts a credit today. */
export type DemoStanding = 'current' | 'ahead' | '1-7' | '8-30' | '31+' | 'paid_off';

export interface DemoCreditPlan {
  credits: (ImportedCredit & { standing: DemoStanding; kind: ScheduleKind })[];
  /** Devices moved onto another device's credit (a TV sold with a phone): their new reference and customer. */
  moved: { id: number; creditReference: string; customerName: string }[];
}

/** Who the seed's payments are recorded by: the lender's loan system, through its API key. */
export const DEMO_PAYMENTS_BY = apiKeyActor('Sistema de créditos');

/** Share of TVs sold on a phone's credit (the customer's TV and phone on one loan). */
const TV_WITH_PHONE = 0.3;
/** Shares drawn for credits whose devices do not say otherwise (a device locked Por Crédito is overdue 8+ days). */
const DRAWN: readonly [DemoStanding, number][] = [
  ['1-7', 0.05],
  ['8-30', 0.012],
  ['31+', 0.012],
  ['paid_off', 0.03],
  ['ahead', 0.08],
];
/** Weekly installments of a phone, biweekly and monthly of a TV, in whole pesos. */
const WEEKLY = [129, 149, 169, 189, 219, 249, 299, 349];
const BIWEEKLY = [349, 399, 449, 549, 649, 749];
const MONTHLY = [699, 849, 999, 1199, 1499, 1799];
const AREA_CODES = ['55', '33', '81', '222', '442', '998', '664'];

/** The bucket's days overdue: the first unpaid installment is due this many days before today. */
const BUCKETS: Record<'1-7' | '8-30' | '31+', readonly [number, number]> = { '1-7': [1, 7], '8-30': [8, 30], '31+': [31, 150] };

/**
 * Plans the credits of these devices (ordered by id) on the company's date of `now`. Deterministic
 * for the same devices, seed, now and zone.
 */
export function planDemoCredits(devices: readonly CreditDevice[], now: Date, timeZone: string, seed = 2026): DemoCreditPlan {
  const rnd = prng(seed ^ 0xc4ed17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const today = todayIn(timeZone, now);
  const moved: DemoCreditPlan['moved'] = [];

  // Credits by lower-case reference, in the order of their first device.
  const groups = new Map<string, CreditDevice[]>();
  let lonePhone: CreditDevice | undefined;
  for (const d0 of devices) {
    let d = d0;
    const key = d.creditReference.toLowerCase();
    if (d.deviceType === 2 && lonePhone && !groups.has(key) && rnd() < TV_WITH_PHONE) {
      // The TV was sold with the last phone on its own: same credit, same customer.
      d = { ...d, creditReference: lonePhone.creditReference, customerName: lonePhone.customerName };
      moved.push({ id: d.id, creditReference: d.creditReference, customerName: d.customerName });
      groups.get(lonePhone.creditReference.toLowerCase())!.push(d);
      lonePhone = undefined;
      continue;
    }
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
    if (d.deviceType === 1 && d.lifecycle !== 'released') lonePhone = groups.get(key)!.length === 1 ? d : undefined;
  }

  const credits: DemoCreditPlan['credits'] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const soldAt = new Date(Math.min(...group.map((d) => d.createdAt.getTime())));
    const sold = todayIn(timeZone, soldAt);
    const tv = group.some((d) => d.deviceType === 2);
    const phone = group.some((d) => d.deviceType === 1);
    const kind: ScheduleKind = tv ? (rnd() < 0.5 ? 'biweekly' : 'monthly') : 'weekly';
    const count = kind === 'weekly' ? 52 : kind === 'biweekly' ? 26 : 12;
    let pesos = kind === 'weekly' ? pick(WEEKLY) : kind === 'biweekly' ? pick(BIWEEKLY) : pick(MONTHLY);
    // A phone on a TV's credit adds its weekly price over the TV's period, rounded to 10 pesos.
    if (tv && phone) pesos += Math.round((pick(WEEKLY) * (kind === 'biweekly' ? 2 : 52 / 12)) / 10) * 10;
    const firstDue = addDays(sold, kind === 'weekly' ? 7 : kind === 'biweekly' ? 14 : 30);
    const installments = buildSchedule({ kind, firstDueDate: firstDue, count, totalCents: pesos * 100 * count });

    const released = group.some((d) => d.lifecycle === 'released');
    const lockedForCredit = group.some(
      (d) => d.lifecycle !== 'released' && ((d.lockState === 'locked' && d.lockType === 'PorCredito') || d.pendingAction === DEVICE_ACTION.LOCK),
    );
    let target: DemoStanding = 'current';
    if (released) target = 'paid_off';
    else if (lockedForCredit) target = rnd() < 0.5 ? '8-30' : '31+';
    else {
      let r = rnd();
      for (const [s, share] of DRAWN) {
        r -= share;
        if (r < 0) {
          target = s;
          break;
        }
      }
    }
    const { paidCents, standing } = paidFor(installments, target, today, rnd, lockedForCredit);
    credits.push({
      reference: first.creditReference,
      customerName: first.customerName,
      customerPhone: `${pick(AREA_CODES)}${String(Math.floor(rnd() * 1e10)).padStart(10, '0')}`.slice(0, 10),
      currency: 'MXN',
      createdAt: soldAt,
      installments,
      payments: paymentsFor(first.creditReference, installments, paidCents, soldAt, now, timeZone, rnd),
      standing,
      kind,
    });
  }
  return { credits, moved };
}

/**
 * What a credit has paid to stand at `target` today: everything (paid off); everything due before
 * today (current), and the next one too (ahead); or up to an installment due a bucket's days ago,
 * sometimes half of it. A target the schedule cannot reach (a credit too young for 31 days
 * overdue) leaves the credit current, or with `insist` overdue from its last installment due.
 */
function paidFor(
  installments: readonly Installment[],
  target: DemoStanding,
  today: string,
  rnd: () => number,
  insist = false,
): { paidCents: number; standing: DemoStanding } {
  const sumTo = (n: number) => installments.slice(0, n).reduce((sum, i) => sum + i.amountCents, 0);
  const due = installments.filter((i) => i.dueDate < today).length;
  if (target === 'paid_off') return { paidCents: sumTo(installments.length), standing: 'paid_off' };
  if (target === '1-7' || target === '8-30' || target === '31+') {
    const [min, max] = BUCKETS[target];
    const late = (i: Installment) => daysBetween(i.dueDate, today);
    let candidates = installments.filter((i) => late(i) >= min && late(i) <= max);
    // A credit behind a lock owes something: the closest bucket its schedule reaches.
    if (candidates.length === 0 && insist) candidates = installments.filter((i) => late(i) >= 1).slice(-1);
    if (candidates.length > 0) {
      const unpaid = candidates[Math.floor(rnd() * candidates.length)]!;
      const part = rnd() < 0.25 ? Math.floor(unpaid.amountCents / 200) * 100 : 0;
      const days = late(unpaid);
      return { paidCents: sumTo(unpaid.number - 1) + part, standing: days <= 7 ? '1-7' : days <= 30 ? '8-30' : '31+' };
    }
  }
  if (target === 'ahead' && due < installments.length) return { paidCents: sumTo(due + 1), standing: 'ahead' };
  return { paidCents: sumTo(due), standing: due === installments.length ? 'paid_off' : 'current' };
}

/**
 * The payments that add up to `paidCents`: one per installment (a month's four installments at
 * once on a weekly schedule: a payment row per week would make the seed several times slower),
 * made on the first one's due date or up to three days before (one in seven a few days late), the
 * last one the part left; what falls after `now` is paid in one payment before it (an early
 * payoff). All between the sale and `now`, in order.
 */
function paymentsFor(
  reference: string,
  installments: readonly Installment[],
  paidCents: number,
  soldAt: Date,
  now: Date,
  timeZone: string,
  rnd: () => number,
): ImportedPayment[] {
  const out: ImportedPayment[] = [];
  let left = paidCents;
  let previous = soldAt.getTime();
  const latest = now.getTime() - 60_000;
  // A weekly customer pays four installments at a time (a month's), others one by one.
  const perPayment = installments.length > 1 && daysBetween(installments[0]!.dueDate, installments[1]!.dueDate) === 7 ? 4 : 1;
  for (let k = 0; k < installments.length && left > 0; k += perPayment) {
    const chunk = installments.slice(k, k + perPayment);
    const shift = rnd() < 1 / 7 ? 1 + Math.floor(rnd() * 4) : -Math.floor(rnd() * 4);
    // Between 09:00 and 19:00 of the day, counted from its midnight (an hour off on a day the clocks change: no matter here).
    const minutes = 9 * 60 + Math.floor(rnd() * 600);
    let at = Math.max(instantAt(addDays(chunk[0]!.dueDate, shift), '00:00', timeZone).getTime() + minutes * 60_000, previous + 60_000);
    // What would be paid after now (an early payoff, a payment ahead) is paid at once, between the last payment and now.
    const rest = at > latest;
    if (rest) at = Math.max(previous + 1_000, Math.min(latest, previous + Math.floor((latest - previous) * rnd())));
    const amountCents = rest
      ? left
      : Math.min(
          left,
          chunk.reduce((sum, i) => sum + i.amountCents, 0),
        );
    left -= amountCents;
    previous = at;
    out.push({
      externalId: `demo-${reference}-${out.length + 1}`,
      amountCents,
      paidAt: new Date(at),
      recordedAt: new Date(Math.min(at + 30_000 + Math.floor(rnd() * 600_000), now.getTime())),
    });
  }
  return out;
}

/**
 * Seeds the credits of the demo devices that carry a reference, in the caller's transaction, when
 * there are none yet: moves the TVs sold with a phone onto its credit, then imports the credits
 * with their schedules and payments. Answers how many credits it created (0 when some existed).
 */
export async function seedDemoCredits(q: Queryable, now: Date, timeZone: string, seed = 2026): Promise<number> {
  if ((await q.query('SELECT 1 FROM credits LIMIT 1')).rowCount > 0) return 0;
  const res = await q.query<{
    id: number;
    device_type: number;
    credit_reference: string;
    customer_name: string;
    created_at: Date;
    lifecycle: string;
    lock_state: string;
    lock_type: string | null;
    pending_action: number | null;
  }>(
    `SELECT id, device_type, credit_reference, customer_name, created_at, lifecycle, lock_state, lock_type, pending_action
       FROM devices WHERE credit_reference IS NOT NULL AND deleted_at IS NULL ORDER BY id`,
  );
  const devices: CreditDevice[] = res.rows.map((r) => ({
    id: Number(r.id),
    deviceType: Number(r.device_type) === 2 ? 2 : 1,
    creditReference: r.credit_reference,
    customerName: r.customer_name,
    createdAt: new Date(r.created_at),
    lifecycle: r.lifecycle,
    lockState: r.lock_state,
    lockType: r.lock_type,
    pendingAction: r.pending_action === null ? null : Number(r.pending_action),
  }));
  const plan = planDemoCredits(devices, now, timeZone, seed);
  if (plan.moved.length) {
    await q.query(
      `UPDATE devices d SET credit_reference = t.reference, customer_name = t.customer_name
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t (id, reference, customer_name) WHERE d.id = t.id`,
      [plan.moved.map((m) => m.id), plan.moved.map((m) => m.creditReference), plan.moved.map((m) => m.customerName)],
    );
  }
  return importCredits(q, plan.credits, { timeZone, source: 'integration', recordedBy: DEMO_PAYMENTS_BY });
}

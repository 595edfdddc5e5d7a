/**
 * The collection policy's decisions for one credit at one instant: which once-only steps are due
 * (reminders before and on a due date, the rungs of the ladder, the release at payoff), whether
 * the credit's devices should be locked, unlocked or freed of the collection restrictions now,
 * and when something next falls due. Pure: the server's engine applies the answer through the
 * device actions and records each once-only step under its key, so that it happens once per
 * (installment, step) however many replicas tick.
 *
 * Locking is a state, not a step: while a credit is overdue past the lock day (and not paused, not
 * held after a person unlocked it) its devices should be locked, so a device unlocked by hand is
 * locked again when the hold ends. Customer-facing steps (reminders, rungs, locks) happen only
 * inside the policy's hours on working days; unlocking and lifting restrictions happen at any hour.
 */
import { addDays, daysBetween } from './calendarDate';
import { allocate } from './allocation';
import type { Installment } from './schedule';
import { standing, type Standing } from './standing';
import { instantAt, todayIn } from './timeZone';
import { isWorkingDay, nextWorkingDay, type WorkingCalendar } from './workingDays';

export const LADDER_KINDS = ['notification', 'persistent_notification', 'restrictions'] as const;
/** A rung: a notification, one the customer must acknowledge, or the collection restrictions (SMS, outgoing calls but emergency numbers). */
export type LadderKind = (typeof LADDER_KINDS)[number];

export const RELEASE_MODES = ['automatic', 'approval'] as const;
export type ReleaseMode = (typeof RELEASE_MODES)[number];

export interface Reminder {
  /** Days from the due date: −3 is three days before, 0 the day itself. */
  offsetDays: number;
  /** Template with {nombre} {monto} {fecha} {referencia}. */
  message: string;
  /** Also shows the credit reference as a barcode to pay with. */
  barcode: boolean;
}

export interface Rung {
  /** Days overdue from which the rung applies (1 = the day after the due date). */
  daysOverdue: number;
  kind: LadderKind;
  /** Template with {nombre} {monto} {fecha} {referencia} (unused by restrictions). */
  message: string;
}

export interface CollectionPolicy {
  reminders: readonly Reminder[];
  ladder: readonly Rung[];
  lock: { enabled: boolean; daysOverdue: number; message: string };
  /** Local hours ('HH:MM', from < to) inside which customer-facing steps happen. */
  hours: { from: string; to: string };
  calendar: WorkingCalendar;
  /** A due date on a non-working day counts from the next working day. */
  shiftDueDates: boolean;
  /** Nothing is collected while the overdue amount is at most this (0: every cent). */
  unlockThresholdCents: number;
  release: ReleaseMode;
  /** After a person unlocks a device of an overdue credit, the policy waits this long before locking again. */
  manualUnlockHoldHours: number;
}

export interface PlanCredit {
  reference: string;
  customerName: string;
  currency: string;
  installments: readonly Installment[];
  /** The sum of the payments that stand. */
  paidCents: number;
  cancelled: boolean;
  /** Promesa de pago: no reminder, rung or lock before this instant. */
  pausedUntil: Date | null;
  /** A person unlocked a device: no lock before this instant. */
  holdUntil: Date | null;
  /** Keys (stepKey) of the once-only steps already taken or skipped. */
  done: ReadonlySet<string>;
  /** The collection restrictions are on (a restrictions rung applied, not yet lifted). */
  restricted: boolean;
  /** The devices of the credit by what the policy could do to them now. */
  devices: {
    /** Neither locked, being locked or released: a lock would apply. */
    lockable: number;
    /** Locked (or being locked) Por Crédito: an unlock would apply. */
    lockedByCredit: number;
    /** Not released (nor being released). */
    unreleased: number;
  };
}

/** Values a template may name. */
export interface TemplateValues {
  nombre: string;
  monto: string;
  fecha: string;
  referencia: string;
}

export type PlannedStep =
  | { key: string; kind: 'reminder'; installment: number; offsetDays: number; values: TemplateValues; message: string; barcode: boolean }
  | { key: string; kind: LadderKind; installment: number; daysOverdue: number; values: TemplateValues; message: string }
  | { key: string; kind: 'release' | 'release_request' };

export interface SkippedStep {
  key: string;
  installment: number;
  /** The step's moment passed while the credit was paused, or before the engine got to it, or a later rung superseded it. */
  why: 'paused' | 'late' | 'superseded';
}

export interface Plan {
  /** The credit's standing on the company's date, due dates shifted as the policy says. */
  standing: Standing;
  /** Once-only steps to take now. */
  steps: PlannedStep[];
  /** Once-only steps to record as skipped now (they will never be taken). */
  skipped: SkippedStep[];
  /** Lock the lockable devices now, with this message (templated); null: not now. */
  lock: { message: string; values: TemplateValues } | null;
  /** Unlock the devices locked Por Crédito now. */
  unlock: boolean;
  /** Lift the collection restrictions now. */
  liftRestrictions: boolean;
  /** When the plan next changes by the clock alone (a payment or an edit re-plans at once); null: never. */
  nextAt: Date | null;
}

/** The once-only step key: `<installment>:reminder:<offset>`, `<installment>:ladder:<days>:<kind>`, `0:release`. */
export const stepKey = {
  reminder: (installment: number, offsetDays: number) => `${installment}:reminder:${offsetDays}`,
  rung: (installment: number, r: Pick<Rung, 'daysOverdue' | 'kind'>) => `${installment}:ladder:${r.daysOverdue}:${r.kind}`,
  release: () => '0:release',
};

/** Replaces {nombre} {monto} {fecha} {referencia}; any other brace text stays as written. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{(nombre|monto|fecha|referencia)\}/g, (_m, name: keyof TemplateValues) => values[name]);
}

/**
 * The hours of working days inside which customer-facing steps happen, with the instants already
 * computed kept: a plan asks for the same few days many times, and each instant costs Intl calls.
 */
class Hours {
  private readonly kept = new Map<string, Date>();

  constructor(
    private readonly timeZone: string,
    private readonly policy: Pick<CollectionPolicy, 'hours' | 'calendar'>,
  ) {}

  /** The instant the first working day on or after `date` shows `time`. */
  private at(date: string, time: string): Date {
    const key = `${date}|${time}`;
    let at = this.kept.get(key);
    if (!at) {
      at = instantAt(nextWorkingDay(date, this.policy.calendar), time, this.timeZone);
      this.kept.set(key, at);
    }
    return at;
  }

  /** The instant the window of `date` opens, or that of the first working day after it. */
  opensOn(date: string): Date {
    return this.at(date, this.policy.hours.from);
  }

  /** The instant the window that opens on (or after) `date` closes. */
  closesOn(date: string): Date {
    return this.at(date, this.policy.hours.to);
  }

  /** `now` when it is inside a window, else the instant the next window opens. */
  nextOpen(now: Date): Date {
    const today = todayIn(this.timeZone, now);
    if (isWorkingDay(today, this.policy.calendar)) {
      if (now < this.opensOn(today)) return this.opensOn(today);
      if (now < this.closesOn(today)) return now;
    }
    return this.opensOn(addDays(today, 1));
  }
}

const later = (a: Date | null, b: Date | null): Date | null => (a && b ? (a > b ? a : b) : (a ?? b));
const earliest = (dates: readonly (Date | null)[]): Date | null => dates.reduce<Date | null>((min, d) => (d && (!min || d < min) ? d : min), null);

/**
 * The plan for `credit` under `policy` at `now`. `formatMoney` and `formatDate` write the amounts
 * and dates templates show (the caller's locale and currency rules).
 */
export function planCollection(
  policy: CollectionPolicy,
  credit: PlanCredit,
  now: Date,
  timeZone: string,
  format: { money: (cents: number, currency: string) => string; date: (date: string) => string },
): Plan {
  const h = new Hours(timeZone, policy);
  const today = todayIn(timeZone, now);
  const installments = policy.shiftDueDates
    ? credit.installments.map((i) => ({ ...i, dueDate: nextWorkingDay(i.dueDate, policy.calendar) }))
    : credit.installments;
  const s = standing({ installments, paidCents: credit.paidCents, cancelled: credit.cancelled, today });
  const plan: Plan = { standing: s, steps: [], skipped: [], lock: null, unlock: false, liftRestrictions: false, nextAt: null };
  if (s.state === 'cancelled') return plan;

  const collecting = s.amountOverdueCents > policy.unlockThresholdCents;
  const paused = credit.pausedUntil !== null && credit.pausedUntil > now;
  const held = credit.holdUntil !== null && credit.holdUntil > now;
  const open = h.nextOpen(now);
  const isOpenNow = open.getTime() === now.getTime();
  const candidates: (Date | null)[] = [];
  const values = (dueDate: string, cents: number): TemplateValues => ({
    nombre: credit.customerName,
    monto: format.money(cents, credit.currency),
    fecha: format.date(dueDate),
    referencia: credit.reference,
  });

  // At any hour: what a payment undoes.
  if (!collecting) {
    plan.unlock = credit.devices.lockedByCredit > 0;
    plan.liftRestrictions = credit.restricted;
  }
  if (s.state === 'paid_off') {
    if (credit.devices.unreleased > 0 && !credit.done.has(stepKey.release())) {
      plan.steps.push({ key: stepKey.release(), kind: policy.release === 'automatic' ? 'release' : 'release_request' });
    }
    return finish(plan, candidates, now);
  }

  // Reminders of each installment not fully paid, on their day's window. Installments come in due
  // order with the same offsets, so once one has only future reminders, so have all after it.
  const unpaid = allocate(installments, credit.paidCents)
    .installments.filter((i) => i.paidCents < i.amountCents)
    .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.number - b.number));
  for (const i of unpaid) {
    let future = 0;
    let other = 0;
    for (const r of policy.reminders) {
      const key = stepKey.reminder(i.number, r.offsetDays);
      const day = addDays(i.dueDate, r.offsetDays);
      const opens = h.opensOn(day);
      if (credit.done.has(key)) {
        other++;
      } else if (now < opens) {
        future++;
        candidates.push(later(opens, paused ? credit.pausedUntil : null));
      } else if (now >= h.closesOn(day)) {
        other++;
        plan.skipped.push({ key, installment: i.number, why: paused ? 'paused' : 'late' });
      } else if (paused) {
        other++;
        candidates.push(credit.pausedUntil);
      } else {
        // Inside that day's window, which is open now.
        other++;
        const v = values(i.dueDate, i.amountCents - i.paidCents);
        plan.steps.push({
          key,
          kind: 'reminder',
          installment: i.number,
          offsetDays: r.offsetDays,
          values: v,
          message: renderTemplate(r.message, v),
          barcode: r.barcode,
        });
      }
    }
    if (future > 0 && other === 0) break;
  }

  // The ladder and the lock count from the oldest installment not fully paid.
  const oldest = unpaid[0];
  if (!oldest) return finish(plan, candidates, now);
  const overdueDays = Math.max(0, daysBetween(oldest.dueDate, today));
  const overdueValues = values(oldest.dueDate, s.amountOverdueCents);
  const rungs = [...policy.ladder].sort((a, b) => a.daysOverdue - b.daysOverdue);
  const reached = rungs.filter((r) => r.daysOverdue <= overdueDays);
  // A rung counts once its day's window opens; with a credit first seen late, only the highest reached rung is taken.
  const highest = reached.filter((r) => now >= h.opensOn(addDays(oldest.dueDate, r.daysOverdue))).at(-1);
  for (const r of rungs) {
    const key = stepKey.rung(oldest.number, r);
    if (credit.done.has(key)) continue;
    const opens = h.opensOn(addDays(oldest.dueDate, r.daysOverdue));
    if (now < opens || !collecting) {
      // Not yet: it comes when its day opens, if a payment has not made it moot by then.
      if (now < opens) candidates.push(later(opens, paused ? credit.pausedUntil : null));
    } else if (r !== highest) {
      if (highest && highest.daysOverdue > r.daysOverdue) plan.skipped.push({ key, installment: oldest.number, why: 'superseded' });
    } else if (paused) {
      candidates.push(credit.pausedUntil);
    } else if (!isOpenNow) {
      candidates.push(open);
    } else {
      plan.steps.push({
        key,
        kind: r.kind,
        installment: oldest.number,
        daysOverdue: r.daysOverdue,
        values: overdueValues,
        message: renderTemplate(r.message, overdueValues),
      });
    }
  }

  if (policy.lock.enabled && credit.devices.lockable > 0) {
    const opens = h.opensOn(addDays(oldest.dueDate, policy.lock.daysOverdue));
    const blockedUntil = later(paused ? credit.pausedUntil : null, held ? credit.holdUntil : null);
    if (now < opens) candidates.push(later(opens, blockedUntil));
    else if (!collecting) {
      // Nothing to lock for: a payment brought the overdue amount under the threshold.
    } else if (blockedUntil) candidates.push(blockedUntil);
    else if (!isOpenNow) candidates.push(open);
    else plan.lock = { message: renderTemplate(policy.lock.message, overdueValues), values: overdueValues };
  }
  if (plan.lock) {
    // The lock supersedes restrictions due on the same look: both are commands the device waits
    // for, and the lock would be refused behind them.
    for (const st of plan.steps) if (st.kind === 'restrictions') plan.skipped.push({ key: st.key, installment: st.installment, why: 'superseded' });
    plan.steps = plan.steps.filter((x) => x.kind !== 'restrictions');
  }
  return finish(plan, candidates, now);
}

function finish(plan: Plan, candidates: readonly (Date | null)[], now: Date): Plan {
  const acting = plan.steps.length > 0 || plan.skipped.length > 0 || plan.lock !== null || plan.unlock || plan.liftRestrictions;
  plan.nextAt = acting ? now : earliest(candidates.filter((d) => d === null || d > now));
  return plan;
}

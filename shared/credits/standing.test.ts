import fc from 'fast-check';
import { countDays, dateBetween, installmentsAndPaid, nearMonthEnd } from '../../tests/helpers/creditArbitraries';
import { CREDIT_LABELS } from '../constants/creditLabels';
import { addDays } from './calendarDate';
import { buildSchedule, type Installment } from './schedule';
import { CREDIT_STATES, standing, type Standing } from './standing';

// 15 Jan, 31 Jan, 15 Feb, 28 Feb 2026: 250.00 each.
const SCHEDULE = buildSchedule({ kind: 'quincena', firstDueDate: '2026-01-15', count: 4, totalCents: 100000 });
const at = (today: string, paidCents: number, cancelled = false) => standing({ installments: SCHEDULE, paidCents, cancelled, today });

describe('standing', () => {
  test('current before the first due date, and on it', () => {
    const expected: Standing = {
      state: 'current',
      daysOverdue: 0,
      amountOverdueCents: 0,
      oldestUnpaidDue: null,
      nextDueDate: '2026-01-15',
      nextDueAmountCents: 25000,
      totalCents: 100000,
      paidCents: 0,
      balanceCents: 100000,
      creditCents: 0,
    };
    expect(at('2026-01-01', 0)).toEqual(expected);
    expect(at('2026-01-15', 0)).toEqual(expected);
  });

  test('overdue from the day after an unpaid due date, counting across the month end', () => {
    expect(at('2026-01-16', 10000)).toMatchObject({
      state: 'overdue',
      daysOverdue: 1,
      amountOverdueCents: 15000,
      oldestUnpaidDue: '2026-01-15',
      nextDueDate: '2026-01-31',
      nextDueAmountCents: 25000,
      balanceCents: 90000,
    });
    expect(at('2026-02-15', 10000)).toMatchObject({
      state: 'overdue',
      daysOverdue: 31,
      amountOverdueCents: 40000,
      nextDueDate: '2026-02-15',
      nextDueAmountCents: 25000,
    });
  });

  test('a partly paid installment due later: its unpaid part is what comes next', () => {
    expect(at('2026-01-20', 30000)).toMatchObject({ state: 'current', nextDueDate: '2026-01-31', nextDueAmountCents: 20000, balanceCents: 70000 });
  });

  test('after the last due date: overdue with nothing next', () => {
    expect(at('2026-03-31', 75000)).toMatchObject({
      state: 'overdue',
      daysOverdue: 31,
      amountOverdueCents: 25000,
      oldestUnpaidDue: '2026-02-28',
      nextDueDate: null,
      nextDueAmountCents: null,
    });
  });

  test('days overdue through a leap day', () => {
    const schedule = buildSchedule({ kind: 'monthly', firstDueDate: '2028-01-31', count: 3, totalCents: 300 });
    expect(standing({ installments: schedule, paidCents: 100, cancelled: false, today: '2028-03-01' })).toMatchObject({
      state: 'overdue',
      daysOverdue: 1,
      oldestUnpaidDue: '2028-02-29',
    });
    expect(standing({ installments: schedule, paidCents: 0, cancelled: false, today: '2028-03-01' }).daysOverdue).toBe(30);
  });

  test('paid off when nothing is left, early or overpaid; the extra is credit', () => {
    expect(at('2026-01-01', 100000)).toMatchObject({ state: 'paid_off', balanceCents: 0, creditCents: 0, nextDueDate: null, daysOverdue: 0 });
    expect(at('2026-06-01', 100050)).toMatchObject({ state: 'paid_off', paidCents: 100050, balanceCents: 0, creditCents: 50 });
    expect(standing({ installments: [], paidCents: 0, cancelled: false, today: '2026-01-01' }).state).toBe('paid_off');
  });

  test('cancelled wins over everything and reports nothing overdue or due', () => {
    for (const [today, paid] of [
      ['2026-03-31', 0],
      ['2026-01-01', 0],
      ['2026-01-01', 100000],
    ] as const) {
      expect(at(today, paid, true)).toMatchObject({
        state: 'cancelled',
        daysOverdue: 0,
        amountOverdueCents: 0,
        oldestUnpaidDue: null,
        nextDueDate: null,
        nextDueAmountCents: null,
        totalCents: 100000,
        balanceCents: 100000 - paid,
      });
    }
  });

  test('refuses a today that is not a date', () => {
    expect(() => at('2026-02-30', 0)).toThrow(RangeError);
  });

  test('the Spanish labels of the states', () => {
    expect(CREDIT_STATES.map((s) => CREDIT_LABELS.states[s])).toEqual(['Al corriente', 'Vencido', 'Liquidado', 'Cancelado']);
  });
});

/** The standing recomputed naively: installments oldest first, each paid in turn, days counted one by one. */
function oracle(installments: Installment[], paidCents: number, today: string) {
  const ordered = [...installments].sort((a, b) => (a.dueDate === b.dueDate ? a.number - b.number : a.dueDate < b.dueDate ? -1 : 1));
  let left = paidCents;
  const unpaid = ordered.map((i) => {
    const part = Math.min(left, i.amountCents);
    left -= part;
    return { dueDate: i.dueDate, cents: i.amountCents - part };
  });
  const late = unpaid.filter((u) => u.cents > 0 && u.dueDate < today);
  const next = unpaid.find((u) => u.cents > 0 && u.dueDate >= today);
  const balance = unpaid.reduce((s, u) => s + u.cents, 0);
  return {
    state: balance === 0 ? 'paid_off' : late.length > 0 ? 'overdue' : 'current',
    daysOverdue: late.length > 0 ? countDays(late[0]!.dueDate, today) : 0,
    amountOverdueCents: late.reduce((s, u) => s + u.cents, 0),
    oldestUnpaidDue: late[0]?.dueDate ?? null,
    nextDueDate: next?.dueDate ?? null,
    nextDueAmountCents: next?.cents ?? null,
    balanceCents: balance,
    creditCents: left,
  };
}

describe('standing: properties', () => {
  /** Installments, a paid sum and a today that is often a due date or a day either side of one. */
  const credit = installmentsAndPaid.chain(([xs, paid]) => {
    const nearDue =
      xs.length === 0 ? [] : [fc.tuple(fc.constantFrom(...xs.map((i) => i.dueDate)), fc.integer({ min: -1, max: 1 })).map(([d, n]) => addDays(d, n))];
    return fc.tuple(fc.constant(xs), fc.constant(paid), fc.oneof(nearMonthEnd, dateBetween('1999-01-01', '2033-12-31'), ...nearDue));
  });

  test('matches a day-by-day recount, across month ends and leap years', () => {
    fc.assert(
      fc.property(credit, ([xs, paid, today]) => {
        expect(standing({ installments: xs, paidCents: paid, cancelled: false, today })).toMatchObject(oracle(xs, paid, today));
      }),
    );
  });

  test('the balance plus what was paid is the total plus the credit; cancelled always wins', () => {
    fc.assert(
      fc.property(credit, fc.boolean(), ([xs, paid, today], cancelled) => {
        const s = standing({ installments: xs, paidCents: paid, cancelled, today });
        expect(s.balanceCents + s.paidCents).toBe(s.totalCents + s.creditCents);
        expect(s.state === 'cancelled').toBe(cancelled);
        if (s.state !== 'overdue') expect([s.daysOverdue, s.amountOverdueCents, s.oldestUnpaidDue]).toEqual([0, 0, null]);
      }),
    );
  });
});

import fc from 'fast-check';
import { allocate, standing } from '../../shared/credits';
import { installmentsAndPaid } from '../../tests/helpers/creditArbitraries';
import type { CreditRecord } from './creditRepository';
import { derivedOf, installmentState, standingResponse, unpaidByDue } from './creditViews';

const schedule = [
  { number: 1, dueDate: '2026-11-01', amountCents: 100_000 },
  { number: 2, dueDate: '2026-12-01', amountCents: 100_000 },
  { number: 3, dueDate: '2027-01-01', amountCents: 100_050 },
];

describe('the derived columns', () => {
  test('the total and the due date of the first installment not fully paid (null when nothing is left)', () => {
    expect(derivedOf(schedule, 0)).toEqual({ totalCents: 300_050, paidCents: 0, firstUnpaidDue: '2026-11-01' });
    expect(derivedOf(schedule, 100_000)).toEqual({ totalCents: 300_050, paidCents: 100_000, firstUnpaidDue: '2026-12-01' });
    expect(derivedOf(schedule, 150_000).firstUnpaidDue).toBe('2026-12-01');
    expect(derivedOf(schedule, 300_050).firstUnpaidDue).toBeNull();
    expect(derivedOf(schedule, 400_000).firstUnpaidDue).toBeNull();
  });

  test('the first unpaid due date says what standing says: overdue exactly when it is before today', () => {
    fc.assert(
      fc.property(installmentsAndPaid, fc.constantFrom('2026-01-31', '2026-02-28', '2027-06-15'), ([installments, paid], today) => {
        if (installments.length === 0) return;
        const { firstUnpaidDue } = derivedOf(installments, paid);
        const s = standing({ installments, paidCents: paid, cancelled: false, today });
        expect(s.state === 'overdue').toBe(firstUnpaidDue !== null && firstUnpaidDue < today);
        expect(s.balanceCents === 0).toBe(firstUnpaidDue === null);
        if (s.state === 'overdue') expect(s.oldestUnpaidDue).toBe(firstUnpaidDue);
      }),
    );
  });
});

test("an installment's state on a day", () => {
  const [first, second, third] = allocate(schedule, 150_000).installments;
  expect(installmentState(first!, '2026-11-20')).toBe('paid');
  expect(installmentState(second!, '2026-11-20')).toBe('partial');
  expect(installmentState(second!, '2026-12-02')).toBe('overdue');
  expect(installmentState(third!, '2026-11-20')).toBe('pending');
});

test('amounts are decimal strings; nothing next when paid off', () => {
  const credit = { reference: 'CR-1', currency: 'MXN' } as CreditRecord;
  const s = standing({ installments: schedule, paidCents: 300_050, cancelled: false, today: '2026-11-20' });
  expect(standingResponse(credit, s)).toEqual({
    reference: 'CR-1',
    currency: 'MXN',
    state: 'paid_off',
    daysOverdue: 0,
    amountOverdue: '0.00',
    nextDueDate: null,
    nextDueAmount: null,
    total: '3000.50',
    paid: '3000.50',
    balance: '0.00',
  });
});

test('what a credit leaves unpaid per due date: the balance, spread oldest last; nothing once cancelled', () => {
  fc.assert(
    fc.property(installmentsAndPaid, ([installments, paid]) => {
      const unpaid = unpaidByDue(installments, paid, false);
      const s = standing({ installments, paidCents: paid, cancelled: false, today: '2026-11-20' });
      expect([...unpaid.values()].reduce((sum, c) => sum + c, 0)).toBe(s.balanceCents);
      expect([...unpaid.entries()].filter(([due]) => due < '2026-11-20').reduce((sum, [, c]) => sum + c, 0)).toBe(s.amountOverdueCents);
      expect(unpaidByDue(installments, paid, true).size).toBe(0);
    }),
  );
});

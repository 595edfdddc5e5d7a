import fc from 'fast-check';
import { installmentsAndPaid, installmentsArb } from '../../tests/helpers/creditArbitraries';
import { allocate, compareInstallments, type AllocatedInstallment } from './allocation';
import type { Installment } from './schedule';

const SCHEDULE: Installment[] = [
  { number: 1, dueDate: '2026-01-15', amountCents: 10000 },
  { number: 2, dueDate: '2026-01-31', amountCents: 10000 },
  { number: 3, dueDate: '2026-02-15', amountCents: 10000 },
];
const paidOf = (xs: AllocatedInstallment[]) => xs.map((i) => i.paidCents);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('allocate', () => {
  test('fills the oldest installment first', () => {
    expect(allocate(SCHEDULE, 0)).toEqual({ installments: SCHEDULE.map((i) => ({ ...i, paidCents: 0 })), creditCents: 0 });
    expect(paidOf(allocate(SCHEDULE, 2500).installments)).toEqual([2500, 0, 0]);
    expect(paidOf(allocate(SCHEDULE, 15000).installments)).toEqual([10000, 5000, 0]);
    expect(paidOf(allocate(SCHEDULE, 30000).installments)).toEqual([10000, 10000, 10000]);
  });

  test('reports an overpayment as credit', () => {
    const a = allocate(SCHEDULE, 30001);
    expect(paidOf(a.installments)).toEqual([10000, 10000, 10000]);
    expect(a.creditCents).toBe(1);
    expect(allocate([], 500)).toEqual({ installments: [], creditCents: 500 });
  });

  test('orders by due date, then by number, and answers in the order given', () => {
    const shuffled: Installment[] = [
      { number: 3, dueDate: '2026-02-15', amountCents: 100 },
      { number: 2, dueDate: '2026-01-15', amountCents: 100 },
      { number: 1, dueDate: '2026-01-15', amountCents: 100 },
    ];
    expect(allocate(shuffled, 150).installments).toEqual([
      { number: 3, dueDate: '2026-02-15', amountCents: 100, paidCents: 0 },
      { number: 2, dueDate: '2026-01-15', amountCents: 100, paidCents: 50 },
      { number: 1, dueDate: '2026-01-15', amountCents: 100, paidCents: 100 },
    ]);
    expect([...shuffled].sort(compareInstallments).map((i) => i.number)).toEqual([1, 2, 3]);
  });

  test('leaves its input alone', () => {
    const input = structuredClone(SCHEDULE);
    allocate(input, 25000);
    expect(input).toEqual(SCHEDULE);
  });

  test('refuses negative, fractional or unsafe amounts and bad dates', () => {
    for (const paid of [-1, 0.5, NaN, 2 ** 53]) expect(() => allocate(SCHEDULE, paid)).toThrow(RangeError);
    expect(() => allocate([{ number: 1, dueDate: '2026-02-30', amountCents: 1 }], 1)).toThrow(RangeError);
    expect(() => allocate([{ number: 1, dueDate: '2026-02-03', amountCents: -1 }], 1)).toThrow(RangeError);
  });
});

describe('allocate: properties', () => {
  test('conserves money: the paid parts sum to min(paid, total), the rest is credit, no part exceeds its installment', () => {
    fc.assert(
      fc.property(installmentsAndPaid, ([xs, paid]) => {
        const { installments, creditCents } = allocate(xs, paid);
        const total = sum(xs.map((i) => i.amountCents));
        expect(sum(paidOf(installments))).toBe(Math.min(paid, total));
        expect(creditCents).toBe(Math.max(0, paid - total));
        expect(installments.every((i) => i.paidCents >= 0 && i.paidCents <= i.amountCents)).toBe(true);
        expect(installments.map(({ paidCents: _, ...i }) => i)).toEqual(xs);
      }),
    );
  });

  test('oldest first: no later installment holds money while an earlier one is not full', () => {
    fc.assert(
      fc.property(installmentsAndPaid, ([xs, paid]) => {
        const ordered = allocate(xs, paid).installments.sort(compareInstallments);
        const firstNotFull = ordered.findIndex((i) => i.paidCents < i.amountCents);
        if (firstNotFull >= 0) expect(ordered.slice(firstNotFull + 1).every((i) => i.paidCents === 0 || i.amountCents === 0)).toBe(true);
      }),
    );
  });

  test('monotone: paying more never takes money from an installment', () => {
    fc.assert(
      fc.property(installmentsAndPaid, fc.nat({ max: 300_000 }), ([xs, paid], more) => {
        const before = paidOf(allocate(xs, paid).installments);
        const after = paidOf(allocate(xs, paid + more).installments);
        expect(before.every((p, k) => p <= after[k]!)).toBe(true);
      }),
    );
  });

  test('paying then reversing a payment restores the allocation exactly', () => {
    fc.assert(
      fc.property(
        installmentsArb,
        fc.array(fc.nat({ max: 150_000 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 150_000 }),
        (xs, payments, payment) => {
          const allocation = (ps: number[]) => allocate(xs, sum(ps));
          const before = structuredClone(allocation(payments));
          const paid = allocation([...payments, payment]);
          expect(sum(paidOf(paid.installments)) + paid.creditCents).toBe(sum(payments) + payment);
          // The reversal takes the payment out of the sum of those that stand.
          expect(allocation(payments)).toEqual(before);
          expect(xs.every((i) => !('paidCents' in i))).toBe(true);
        },
      ),
    );
  });
});

import { DEFAULT_PAYMENT_RATES, amountDue, behaviourOf, parsePaymentRates } from './payments';

describe('customers who pay', () => {
  test('rates: fractions or percentages, adding up to 100 %', () => {
    expect(parsePaymentRates('on-time=0.7,late=0.2,never=0.1')).toEqual(DEFAULT_PAYMENT_RATES);
    expect(parsePaymentRates('late=25%, never=75%')).toEqual({ onTime: 0, late: 0.25, never: 0.75 });
    expect(parsePaymentRates('on-time=0.7')).toBe('Las proporciones de --payments deben sumar 100 % (suman 70 %).');
    expect(parsePaymentRates('on-time=2')).toMatch(/^--payments debe escribirse/);
    expect(parsePaymentRates('')).toMatch(/^--payments debe escribirse/);
  });

  test('each reference keeps its behaviour, and the behaviours follow the rates', () => {
    const refs = Array.from({ length: 4_000 }, (_, i) => `CR-2026-${String(i).padStart(6, '0')}`);
    const first = refs.map((r) => behaviourOf(r, DEFAULT_PAYMENT_RATES, 3));
    expect(refs.map((r) => behaviourOf(r.toLowerCase(), DEFAULT_PAYMENT_RATES, 3))).toEqual(first);
    const share = (b: string) => first.filter((x) => x === b).length / refs.length;
    expect(share('onTime')).toBeCloseTo(0.7, 1);
    expect(share('late')).toBeCloseTo(0.2, 1);
    expect(share('never')).toBeCloseTo(0.1, 1);
    expect(refs.every((r) => behaviourOf(r, { onTime: 0, late: 0, never: 1 }) === 'never')).toBe(true);
  });

  test('what each customer pays today', () => {
    const overdue = { state: 'overdue' as const, amountOverdue: '300.00', nextDueDate: '2026-12-05', nextDueAmount: '150.00' };
    expect(amountDue(overdue, 'onTime', '2026-12-05')).toBe(45_000);
    expect(amountDue(overdue, 'onTime', '2026-12-04')).toBe(30_000);
    expect(amountDue(overdue, 'late', '2026-12-05')).toBe(30_000);
    expect(amountDue(overdue, 'never', '2026-12-05')).toBe(0);
    expect(amountDue({ ...overdue, state: 'current', amountOverdue: '0.00' }, 'late', '2026-12-05')).toBe(0);
    expect(amountDue({ ...overdue, state: 'paid_off' }, 'onTime', '2026-12-05')).toBe(0);
  });
});

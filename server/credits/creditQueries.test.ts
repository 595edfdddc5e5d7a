import { addDays } from '../../shared/credits';
import { SqlWhere } from '../devices';
import { countersAnswer, countersWhere, creditOrderBy, creditWhere, dueCondition } from './creditQueries';

const TODAY = '2026-11-20';
const day = (n: number) => addDays(TODAY, n);

describe('the due condition of a state and an overdue bucket', () => {
  test.each<[object, ReturnType<typeof dueCondition>]>([
    [{}, { empty: false, cancelled: undefined, due: undefined }],
    [{ state: 'cancelled' }, { empty: false, cancelled: true, due: undefined }],
    [{ state: 'paid_off' }, { empty: false, cancelled: false, due: 'none' }],
    [{ state: 'overdue' }, { empty: false, cancelled: false, due: { max: day(-1) } }],
    [{ state: 'current' }, { empty: false, cancelled: false, due: { min: TODAY } }],
    [{ overdue: '1-7' }, { empty: false, cancelled: false, due: { min: day(-7), max: day(-1) } }],
    [{ overdue: '8-30' }, { empty: false, cancelled: false, due: { min: day(-30), max: day(-8) } }],
    [{ overdue: '31+' }, { empty: false, cancelled: false, due: { min: undefined, max: day(-31) } }],
    [
      { state: 'overdue', overdue: '8-30' },
      { empty: false, cancelled: false, due: { min: day(-30), max: day(-8) } },
    ],
    [{ state: 'current', overdue: '1-7' }, { empty: true }],
    [{ state: 'paid_off', overdue: '31+' }, { empty: true }],
    [{ state: 'cancelled', overdue: '1-7' }, { empty: true }],
  ])('%j', (filter, expected) => {
    expect(dueCondition(filter, TODAY)).toEqual(expected);
  });

  test('a bucket spans its days across a month end and a leap day', () => {
    expect(dueCondition({ overdue: '1-7' }, '2028-03-02')).toEqual({ empty: false, cancelled: false, due: { min: '2028-02-24', max: '2028-03-01' } });
  });
});

describe('the SQL of the filters', () => {
  test('on the credits: ranges of the first unpaid due date, parameters numbered in order', () => {
    const where = creditWhere({ state: 'overdue', overdue: '1-7', groupId: 'none', search: 'Peña  cr-1' }, TODAY);
    expect(where.conditions.slice(0, 3)).toEqual(['c.cancelled_at IS NULL', 'c.first_unpaid_due >= $1::date', 'c.first_unpaid_due <= $2::date']);
    expect(where.params).toEqual([day(-7), day(-1), '%pea%', '%cr-1%']);
    expect(where.conditions.at(-2)).toBe('c.search_text LIKE search_fold($3)');
    expect(String(where)).toMatch(/coalesce\(d\.group_id, 0\) = 0/);
  });

  test('paid today: the credits of the payments that stand dated in the company day, or the others; never from the counters', () => {
    const day = { start: new Date('2026-11-20T06:00:00Z'), end: new Date('2026-11-21T06:00:00Z') };
    const paid = creditWhere({ paidToday: true }, TODAY, new SqlWhere(), day);
    expect(paid.params).toEqual([day.start, day.end]);
    expect(paid.conditions.at(-1)!.replace(/\s+/g, ' ')).toBe(
      '(c.id IN (SELECT p.credit_id FROM credit_payments p WHERE p.reversed_at IS NULL AND p.paid_at >= $1 AND p.paid_at < $2))',
    );
    expect(creditWhere({ paidToday: false }, TODAY, new SqlWhere(), day).conditions.at(-1)).toMatch(/^NOT \(c\.id IN/);
    expect(() => creditWhere({ paidToday: true }, TODAY)).toThrow('paidToday');
    expect(countersAnswer({ paidToday: true })).toBe(false);
  });

  test('LIKE wildcards typed in a search are searched for themselves', () => {
    expect(creditWhere({ search: '50%_x' }, TODAY).params).toEqual(['%50\\%\\_x%']);
  });

  test('an empty condition reads nothing; on the counters, paid off is the infinite date', () => {
    expect(String(creditWhere({ state: 'current', overdue: '31+' }, TODAY))).toBe('WHERE false');
    expect(countersWhere(dueCondition({ state: 'current', overdue: '31+' }, TODAY))).toBeUndefined();
    expect(countersWhere(dueCondition({ state: 'paid_off' }, TODAY))!.conditions).toEqual(['true', 'cancelled = false', "due = 'infinity'"]);
    const current = countersWhere(dueCondition({ state: 'current' }, TODAY), new SqlWhere(['x']))!;
    expect([current.conditions, current.params]).toEqual([
      ['true', 'cancelled = false', "due < 'infinity'", 'due >= $2::date'],
      ['x', TODAY],
    ]);
  });

  test('every sort ends on a unique key, in the direction asked', () => {
    expect(creditOrderBy('dueDate', 'asc')).toBe('c.first_unpaid_due ASC, c.id ASC');
    expect(creditOrderBy('reference', 'desc')).toBe('lower(c.reference) DESC');
    expect(creditOrderBy('balance', 'desc')).toBe('greatest(c.total_cents - c.paid_cents, 0) DESC, c.id DESC');
  });
});

import { DEFAULT_COLLECTION_POLICY, effectiveSettings, resolvePolicy } from './policySettings';
import { isWorkingDay } from './workingDays';

test('a group override replaces its keys as a whole; the rest comes from the global settings, then the defaults', () => {
  const settings = effectiveSettings(
    { lock: { enabled: true, daysOverdue: 10, message: 'x' }, holidays: ['2026-12-24'] },
    { holidays: ['2026-12-31'] },
  );
  expect(settings.lock.daysOverdue).toBe(10);
  expect(settings.holidays).toEqual(['2026-12-31']);
  expect(settings.ladder).toBe(DEFAULT_COLLECTION_POLICY.ladder);
});

test("the resolved calendar holds Mexico's rest days around the date, and the company's own", () => {
  const policy = resolvePolicy({ ...DEFAULT_COLLECTION_POLICY, holidays: ['2026-12-24'] }, '2026-12-05');
  expect(isWorkingDay('2026-09-16', policy.calendar)).toBe(false);
  expect(isWorkingDay('2027-02-01', policy.calendar)).toBe(false); // first Monday of February 2027
  expect(isWorkingDay('2026-12-24', policy.calendar)).toBe(false);
  expect(isWorkingDay('2026-12-06', policy.calendar)).toBe(false); // a Sunday
  expect(isWorkingDay('2026-12-07', policy.calendar)).toBe(true);
  const without = resolvePolicy({ ...DEFAULT_COLLECTION_POLICY, mexicanHolidays: false }, '2026-12-05');
  expect(isWorkingDay('2026-09-16', without.calendar)).toBe(true);
});

import { lastDays } from './dashboardService';

test("lastDays: the days ending on now's day in the zone asked for, oldest first, across months and a DST change", () => {
  // 03:30 UTC on 1 Dec is still 30 Nov in Mexico City (UTC-6).
  const at = new Date('2026-12-01T03:30:00Z');
  expect(lastDays(at, 'UTC', 3)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01']);
  expect(lastDays(at, 'America/Mexico_City', 3)).toEqual(['2026-11-28', '2026-11-29', '2026-11-30']);
  // New York leaves summer time on 1 Nov 2026: calendar days, each once.
  expect(lastDays(new Date('2026-11-02T12:00:00Z'), 'America/New_York', 4)).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
  expect(lastDays(at, 'UTC', 30)).toHaveLength(30);
  expect(new Set(lastDays(at, 'UTC', 30)).size).toBe(30);
});

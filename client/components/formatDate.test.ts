import { formatDate, formatDateTime } from './formatDate';

test('the date and time are es-MX, with the year and the time', () => {
  const text = formatDateTime('2026-03-05T14:05:09');
  expect(text).toMatch(/5 mar 2026/);
  expect(text).toMatch(/14:05|2:05/);
  expect(text).not.toMatch(/:09/);
});

test('with seconds (the audit log) the seconds show', () => {
  expect(formatDateTime('2026-03-05T14:05:09', { seconds: true })).toMatch(/5 mar 2026.*(14|2):05:09/);
});

test('the date alone has no time', () => {
  const text = formatDate('2026-03-05T14:05:09');
  expect(text).toMatch(/5 mar 2026/);
  expect(text).not.toMatch(/05:09|14:05/);
});

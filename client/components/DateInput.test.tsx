import { dayText, parseDayText } from './DateInput';

test('dd/mm/aaaa reads as a calendar day, one-digit day and month too; anything else is no day', () => {
  expect(parseDayText('05/03/2026')).toBe('2026-03-05');
  expect(parseDayText(' 5/3/2026 ')).toBe('2026-03-05');
  expect(parseDayText('29/02/2024')).toBe('2024-02-29');
  for (const text of ['29/02/2026', '31/04/2026', '00/01/2026', '12/13/2026', '2026-03-05', '03/05/26', '05-03-2026', '']) {
    expect([text, parseDayText(text)]).toEqual([text, undefined]);
  }
});

test('a day is shown as dd/mm/aaaa', () => {
  expect(dayText('2026-03-05')).toBe('05/03/2026');
  expect(dayText('')).toBe('');
});

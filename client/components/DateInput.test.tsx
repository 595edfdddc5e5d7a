import { dateTimeInstant, dateTimeText, dayText, parseDateTimeText, parseDayText } from './DateInput';

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

describe('date and time as dd/mm/aaaa hh:mm', () => {
  test('reads the local time it names, and writes it back', () => {
    const at = parseDateTimeText(' 5/3/2026  14:05 ')!;
    expect([at.getFullYear(), at.getMonth(), at.getDate(), at.getHours(), at.getMinutes()]).toEqual([2026, 2, 5, 14, 5]);
    expect(dateTimeText(at)).toBe('05/03/2026 14:05');
    expect(dateTimeInstant('05/03/2026 14:05')).toBe(at.toISOString());
  });

  test('anything else is no instant, passed on as typed', () => {
    for (const text of ['', '2026-03-05T14:05', '31/02/2026 10:00', '05/03/2026 24:00', '05/03/2026 10:60', '05/03/2026', '05/03/2026 9'])
      expect(parseDateTimeText(text)).toBeUndefined();
    expect(dateTimeInstant('mañana')).toBe('mañana');
  });
});

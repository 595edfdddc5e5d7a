import fc from 'fast-check';
import { MAX_AMOUNT_CENTS, formatAmount, formatMoney, isCents, parseAmount, splitCents } from './money';

describe('parseAmount', () => {
  test.each([
    ['1250', 125000],
    ['1250.5', 125050],
    ['1250.50', 125050],
    ['1250.00', 125000],
    ['0', 0],
    ['0.5', 50],
    ['0.05', 5],
    ['0.29', 29], // 0.29 * 100 is 28.999999999999996 in floats
    ['1.15', 115],
    ['1000000000', MAX_AMOUNT_CENTS],
    ['1000000000.00', MAX_AMOUNT_CENTS],
  ])('%s → %d cents', (text, cents) => {
    expect(parseAmount(text)).toBe(cents);
  });

  test.each([
    ['-1', 'a sign'],
    ['+1', 'a sign'],
    ['1.005', 'three decimals'],
    ['1,250.00', 'a thousands separator'],
    ['1250,50', 'a decimal comma'],
    ['1e3', 'an exponent'],
    [' 1250', 'a space'],
    ['1250 ', 'a trailing space'],
    ['1 250', 'a space inside'],
    ['', 'nothing'],
    ['.5', 'no units'],
    ['1250.', 'a dot without decimals'],
    ['01250', 'a leading zero'],
    ['00.50', 'leading zeros'],
    ['1000000000.01', 'one cent above the maximum'],
    ['99999999999', 'eleven digits'],
    ['NaN', 'not a number'],
    ['Infinity', 'not a number'],
    ['0x10', 'hexadecimal'],
    ['１２', 'full-width digits'],
  ])('refuses %j (%s)', (text) => {
    expect(parseAmount(text)).toBeNull();
  });

  test('every whole number of cents up to the maximum reads back from its wire form', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_CENTS }), (cents) => parseAmount(formatAmount(cents)) === cents));
  });

  test('an amount with one decimal reads as the same amount with two', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 9 }), (units, tenth) => {
        expect(parseAmount(`${units}.${tenth}`)).toBe(parseAmount(`${units}.${tenth}0`));
        expect(parseAmount(`${units}.${tenth}0`)).toBe(units * 100 + tenth * 10);
      }),
    );
  });
});

describe('formatAmount and formatMoney', () => {
  test.each([
    [125000, '1250.00', '1,250.00 MXN'],
    [0, '0.00', '0.00 MXN'],
    [5, '0.05', '0.05 MXN'],
    [99, '0.99', '0.99 MXN'],
    [100, '1.00', '1.00 MXN'],
    [99999, '999.99', '999.99 MXN'],
    [100000, '1000.00', '1,000.00 MXN'],
    [123456789, '1234567.89', '1,234,567.89 MXN'],
    [MAX_AMOUNT_CENTS, '1000000000.00', '1,000,000,000.00 MXN'],
    [-125050, '-1250.50', '-1,250.50 MXN'],
    [-5, '-0.05', '-0.05 MXN'],
  ])('%d → %s, %s', (cents, wire, display) => {
    expect(formatAmount(cents)).toBe(wire);
    expect(formatMoney(cents, 'MXN')).toBe(display);
  });

  test('the currency is any ISO code', () => {
    expect(formatMoney(150000, 'USD')).toBe('1,500.00 USD');
    for (const bad of ['mxn', 'MX', '$', 'MXNN', '']) expect(() => formatMoney(1, bad)).toThrow(RangeError);
  });

  test('fractions, NaN and unsafe integers are not cents', () => {
    for (const bad of [0.5, NaN, Infinity, 2 ** 53]) expect(() => formatAmount(bad)).toThrow(RangeError);
  });

  test('the display form is the wire form with a comma every three digits of units', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_AMOUNT_CENTS, max: MAX_AMOUNT_CENTS }), (cents) => {
        const shown = formatMoney(cents, 'MXN');
        expect(shown).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2} MXN$/);
        expect(shown.replace(/,/g, '').replace(' MXN', '')).toBe(formatAmount(cents));
      }),
    );
  });
});

describe('isCents and splitCents', () => {
  test('isCents: whole, non-negative, safe', () => {
    expect([0, 1, MAX_AMOUNT_CENTS, Number.MAX_SAFE_INTEGER].every(isCents)).toBe(true);
    expect([-1, 0.5, NaN, 2 ** 53, '5', null].some(isCents)).toBe(false);
  });

  test('the remainder goes one cent each to the first amounts', () => {
    expect(splitCents(100001, 3)).toEqual([33334, 33334, 33333]);
    expect(splitCents(100000, 4)).toEqual([25000, 25000, 25000, 25000]);
    expect(splitCents(5, 5)).toEqual([1, 1, 1, 1, 1]);
    expect(splitCents(2, 3)).toEqual([1, 1, 0]);
    expect(splitCents(0, 2)).toEqual([0, 0]);
    expect(() => splitCents(100, 0)).toThrow(RangeError);
    expect(() => splitCents(-1, 2)).toThrow(RangeError);
    expect(() => splitCents(10.5, 2)).toThrow(RangeError);
  });

  test('the amounts sum to the total, differ by at most a cent and never increase', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_CENTS * 1000 }), fc.integer({ min: 1, max: 1000 }), (total, count) => {
        const amounts = splitCents(total, count);
        expect(amounts).toHaveLength(count);
        expect(amounts.reduce((a, b) => a + b, 0)).toBe(total);
        expect(amounts.every(Number.isSafeInteger)).toBe(true);
        expect(amounts.every((a, i) => i === 0 || amounts[i - 1]! >= a)).toBe(true);
        expect(amounts[0]! - amounts[count - 1]!).toBeLessThanOrEqual(1);
      }),
    );
  });
});

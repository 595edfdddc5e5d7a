/**
 * Money as integer cents (safe integers), so sums and splits are exact: no float ever holds an
 * amount. The wire form is a plain decimal string ('1250.00'); the display form groups thousands
 * with commas and keeps the dot for decimals, as Mexico writes amounts.
 */

/** The largest amount taken from input: 1,000,000,000.00 (10^11 cents), far below 2^53. */
export const MAX_AMOUNT_CENTS = 100_000_000_000;

/** The one accepted spelling: digits without a sign or leading zeros, then up to two decimals. */
const AMOUNT = /^(0|[1-9]\d{0,9})(?:\.(\d{1,2}))?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** Whether a value is a whole, non-negative number of cents that arithmetic keeps exact. */
export function isCents(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * Cents from a decimal string: '1250' → 125000, '1250.5' → 125050, '1250.50' → 125050. Null for
 * anything else: a sign, more than two decimals, separators, exponents, spaces, leading zeros
 * ('007'), an empty string, or more than MAX_AMOUNT_CENTS.
 */
export function parseAmount(text: string): number | null {
  const match = AMOUNT.exec(text);
  if (!match) return null;
  // At most ten digits of units: Number() reads them exactly.
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_AMOUNT_CENTS ? cents : null;
}

/** Integer division and remainder, exact for safe integers (no rounding of a float quotient). */
function divide(dividend: number, divisor: number): { quotient: number; remainder: number } {
  const remainder = dividend % divisor;
  return { quotient: (dividend - remainder) / divisor, remainder };
}

/** The wire form of an amount: 125000 → '1250.00', -5 → '-0.05'. */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const { quotient, remainder } = divide(Math.abs(cents), 100);
  return `${cents < 0 ? '-' : ''}${quotient}.${String(remainder).padStart(2, '0')}`;
}

/**
 * The display form: formatMoney(125000, 'MXN') → '1,250.00 MXN'. Written by hand rather than by
 * Intl so the browser and the server print the same characters whatever their ICU data.
 */
export function formatMoney(cents: number, currency: string): string {
  if (!CURRENCY.test(currency)) throw new RangeError(`Not an ISO 4217 currency code: ${currency}`);
  return `${formatAmount(cents).replace(/\B(?=(\d{3})+\.)/g, ',')} ${currency}`;
}

/**
 * `count` amounts that add up to `totalCents` exactly and differ by at most one cent: the
 * remainder goes one cent each to the first amounts.
 */
export function splitCents(totalCents: number, count: number): number[] {
  if (!isCents(totalCents)) throw new RangeError(`Not a whole, non-negative number of cents: ${totalCents}`);
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`Not a positive count: ${count}`);
  const { quotient, remainder } = divide(totalCents, count);
  return Array.from({ length: count }, (_, i) => quotient + (i < remainder ? 1 : 0));
}

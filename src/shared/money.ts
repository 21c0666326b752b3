/**
 * Money is integer cents in code and numeric(12,2) in the database (a decimal string such as
 * "1234.50" through the driver). Never add floats.
 */
const DECIMAL = /^(-)?(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * "1234.5" → 123450. Throws on anything that is not a plain decimal with at most 2 places. Up to 13
 * digits before the point: a price fits in 10, a total of many prices in more, and 13 keeps the
 * cents a safe integer.
 */
export function toCents(value: string | number): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = DECIMAL.exec(text);
  if (!m) throw new Error(`Not a money amount: ${value}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** 123450 → "1234.50" (the database's decimal form). */
export function fromCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}


const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

const ANY_DECIMAL = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/** "$1,234.50" from cents or a decimal string (a string of any length: totals can be large). */
export function formatUsd(amount: number | string): string {
  if (typeof amount === 'string') {
    const m = ANY_DECIMAL.exec(amount.trim());
    if (!m) throw new Error(`Not a money amount: ${amount}`);
    // the digits are grouped as text: no number ever carries the amount
    const whole = m[2].replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const negative = Boolean(m[1]) && /[1-9]/.test(m[2] + (m[3] ?? ''));
    return `${negative ? '-' : ''}$${whole}.${(m[3] ?? '').padEnd(2, '0')}`;
  }
  const cents = amount;
  const sign = cents < 0 ? '-' : '';
  // format whole dollars and append the cents ourselves: no float ever carries the amount
  const dollars = usd.format(Math.trunc(Math.abs(cents) / 100)).replace(/\.00$/, '');
  return `${sign}${dollars}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
}

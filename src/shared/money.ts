/**
 * Money is integer cents in code and numeric(12,2) in the database (a decimal string such as
 * "1234.50" through the driver). Never add floats.
 */
const DECIMAL = /^(-)?(\d{1,10})(?:\.(\d{1,2}))?$/;

/** "1234.5" → 123450. Throws on anything that is not a plain decimal with at most 2 places. */
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

export function isMoney(value: string | number): boolean {
  try {
    toCents(value);
    return true;
  } catch {
    return false;
  }
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "$1,234.50" from cents or a decimal string. */
export function formatUsd(amount: number | string): string {
  const cents = typeof amount === 'string' ? toCents(amount) : amount;
  const sign = cents < 0 ? '-' : '';
  // format whole dollars and append the cents ourselves: no float ever carries the amount
  const dollars = usd.format(Math.trunc(Math.abs(cents) / 100)).replace(/\.00$/, '');
  return `${sign}${dollars}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
}

/**
 * The one way Byline writes CSV (issue 57): the audit log's, the admins' payments export, a
 * report's, and the brand's export of selected placements in the browser.
 */

/**
 * What a spreadsheet runs as a formula when a cell starts with it: = + - @ (and their full-width
 * forms, which some normalise), a tab or a carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/**
 * One cell: a value a spreadsheet would run as a formula is written as text (a leading `'`), and a
 * value with a comma, a quote or a line break is quoted, its quotes doubled.
 */
function csvCell(value: string | null | undefined): string {
  const text = value ?? '';
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV text: cells by commas, each row ended by CRLF (RFC 4180). */
export const csvRows = (rows: readonly (readonly (string | null | undefined)[])[]): string =>
  rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');

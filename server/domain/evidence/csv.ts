/**
 * RFC 4180 text: fields separated by commas, records ended by CRLF, a field quoted when it holds a comma, a quote,
 * CR or LF, and its quotes doubled. Nothing else is quoted, so plain values stay readable in a text editor.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: readonly (string | number | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** What a spreadsheet takes for the start of a formula (OWASP, "CSV Injection"): `=`, `+`, `-`, `@`, tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell of text a tenant or a provider wrote (attempt ids, provider payment ids, event ids, invoice numbers,
 * revisions): one that a spreadsheet would run as a formula gets a leading single quote, OWASP's neutralisation, so
 * the file opened by double-click shows the text and runs nothing; the value stays recognisable (the quote is the only
 * change). Only text goes through here: numbers the service computed stay numbers, negative ones included.
 */
export function tenantText(value: string | null): string | null {
  return value !== null && FORMULA_START.test(value) ? `'${value}` : value;
}

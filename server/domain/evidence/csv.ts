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

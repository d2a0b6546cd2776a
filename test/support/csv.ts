/**
 * An RFC 4180 reader for tests (no CSV package is installed): records end with CRLF, fields are separated by commas,
 * a quoted field may hold commas, CRLF and doubled quotes. Anything else (a bare LF ending a record, a quote inside
 * an unquoted field, text after a closing quote, a missing final CRLF) throws, so a writer that bends the format fails.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('Unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`A quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
      continue;
    }
    throw new Error(`Expected a comma or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 10))}`);
  }
  if (record.length > 0) throw new Error('The last record does not end with CRLF');
  return records;
}

/** Records as objects keyed by the header row; every record must have the header's field count. */
export function csvObjects(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header, ...records] = parseCsv(text);
  if (!header) throw new Error('No header row');
  return {
    header,
    rows: records.map((r) => {
      if (r.length !== header.length) throw new Error(`A record of ${r.length} fields under a header of ${header.length}`);
      return Object.fromEntries(header.map((h, k) => [h, r[k]!]));
    }),
  };
}

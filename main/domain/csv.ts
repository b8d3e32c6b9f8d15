// RFC 4180 CSV: fields separated by commas, records by CRLF, a field quoted (quotes doubled) when it
// holds a comma, a quote, a CR or an LF. Spreadsheet formula characters are not escaped: the export is
// data for scripts and spreadsheets alike, and changing values would break the former.

export function csvField(value: string | number | null | undefined): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRecord(fields: readonly (string | number | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

// RFC 4180 CSV: fields separated by commas, records by CRLF, a field quoted (quotes doubled) when it
// holds a comma, a quote, a CR or an LF. Formula injection is escaped as OWASP recommends ("CSV
// Injection"): a cell that starts with = + - @, a TAB or a CR gets a leading single quote, so a
// spreadsheet shows it as text instead of evaluating it (document text and file names are whoever
// uploaded them). A cell that is a plain number (`-1234.56`, `+1`, `2e-3`) is a number to every
// spreadsheet, never a formula, and is written as it is so that negative values stay numbers.

/** The first characters that make a spreadsheet read a cell as a formula (or hide what follows). */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** One cell's text with formula injection escaped: `=1+1` becomes `'=1+1`. */
export function neutralizeFormula(s: string): string {
  return FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
}

export function csvField(value: string | number | null | undefined): string {
  const s = neutralizeFormula(value === null || value === undefined ? '' : String(value));
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRecord(fields: readonly (string | number | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

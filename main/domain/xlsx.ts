// A minimal XLSX writer (ECMA-376 SpreadsheetML, transitional): a workbook of sheets whose cells are
// inline strings or numbers, the first row bold and frozen, inside a ZIP from zip.ts. Strings are
// always string cells (t="inlineStr") and the writer never writes a formula, so a value that starts
// with "=" stays the text it is: no spreadsheet formula injection, and no value changed to prevent it.
// Pure.
import { writeZip, type ZipOptions } from './zip.ts';

/** A number cell, a string cell, or no cell. Numbers that are not finite are written as their text. */
export type XlsxCell = string | number | null | undefined;

export interface XlsxSheet {
  /** 1-31 characters, none of : \ / ? * [ ], unique within the workbook ignoring case. */
  name: string;
  /** The first row is the header: bold, frozen while scrolling. */
  rows: readonly (readonly XlsxCell[])[];
}

/** Excel refuses a cell holding more characters; longer strings are cut there (README, Export). */
export const MAX_CELL_CHARS = 32_767;
const MAX_COLUMNS = 16_384;
const MAX_ROWS = 1_048_576;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Characters XML 1.0 cannot carry: controls other than tab, LF, CR; U+FFFE and U+FFFF. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
// A lone surrogate half cannot be written as UTF-8 at all.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes text for XML character data and attribute values. */
export function xmlEscape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * A cell string as SpreadsheetML's ST_Xstring: characters XML cannot hold become `_xHHHH_`, which
 * spreadsheet programs read back as the character, and an underscore that would start such an escape
 * in the text itself is escaped as `_x005F_`, so every value reads back exactly.
 */
export function xstring(s: string): string {
  return xmlEscape(
    s
      .replace(LONE_SURROGATE, '\ufffd')
      .replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_')
      .replace(NOT_XML, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`),
  );
}

/** 0 -> A, 25 -> Z, 26 -> AA. */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

function checkSheets(sheets: readonly XlsxSheet[]): void {
  if (!sheets.length) throw new Error('A workbook needs at least one sheet.');
  const names = new Set<string>();
  for (const s of sheets) {
    if (!s.name || s.name.length > 31 || /[:\\/?*[\]]/.test(s.name)) throw new Error(`Invalid sheet name "${s.name}".`);
    if (names.has(s.name.toLowerCase())) throw new Error(`Duplicate sheet name "${s.name}".`);
    names.add(s.name.toLowerCase());
    if (s.rows.length > MAX_ROWS) throw new Error(`Sheet "${s.name}" has more than ${MAX_ROWS} rows.`);
    if (s.rows.some((r) => r.length > MAX_COLUMNS)) throw new Error(`Sheet "${s.name}" has more than ${MAX_COLUMNS} columns.`);
  }
}

function cellXml(ref: string, value: XlsxCell, style: string): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${style}><v>${value}</v></c>`;
  const text = String(value);
  const cut = text.length > MAX_CELL_CHARS ? text.slice(0, MAX_CELL_CHARS) : text;
  return `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${xstring(cut)}</t></is></c>`;
}

/** Column widths from the longest first line of each column's cells (in characters, within 8 and 60). */
function widths(rows: readonly (readonly XlsxCell[])[]): number[] {
  const out: number[] = [];
  for (const row of rows.slice(0, 1000)) {
    row.forEach((v, i) => {
      const len = v === null || v === undefined ? 0 : Math.max(...String(v).split('\n').map((l) => l.length));
      out[i] = Math.max(out[i] ?? 8, Math.min(len + 2, 60));
    });
  }
  return out;
}

function sheetXml(sheet: XlsxSheet): string {
  const cols = widths(sheet.rows);
  const rows = sheet.rows.map((row, r) => {
    const style = r === 0 ? ' s="1"' : '';
    return `<row r="${r + 1}">${row.map((v, c) => cellXml(`${columnName(c)}${r + 1}`, v, style)).join('')}</row>`;
  });
  return (
    `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (cols.length ? `<cols>${cols.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` : '') +
    `<sheetData>${rows.join('')}</sheetData>` +
    '</worksheet>'
  );
}

const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/** The workbook as the bytes of an .xlsx file. */
export function writeXlsx(sheets: readonly XlsxSheet[], options: Pick<ZipOptions, 'modified'> = {}): Buffer {
  checkSheets(sheets);
  const n = sheets.map((_, i) => i + 1);
  const contentTypes =
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    n.map((i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
    '</Types>';
  const rootRels =
    `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
    `<Relationship Id="rId1" Type="${REL_TYPE}/officeDocument" Target="xl/workbook.xml"/>` +
    '</Relationships>';
  const workbook =
    `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheets>` +
    sheets.map((s, i) => `<sheet name="${xmlEscape(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
    '</sheets></workbook>';
  const workbookRels =
    `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
    n.map((i) => `<Relationship Id="rId${i}" Type="${REL_TYPE}/worksheet" Target="worksheets/sheet${i}.xml"/>`).join('') +
    `<Relationship Id="rId${sheets.length + 1}" Type="${REL_TYPE}/styles" Target="styles.xml"/>` +
    '</Relationships>';
  return writeZip(
    [
      { name: '[Content_Types].xml', data: contentTypes },
      { name: '_rels/.rels', data: rootRels },
      { name: 'xl/workbook.xml', data: workbook },
      { name: 'xl/_rels/workbook.xml.rels', data: workbookRels },
      { name: 'xl/styles.xml', data: STYLES },
      ...sheets.map((s, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data: sheetXml(s) })),
    ],
    options,
  );
}

// The ZIP and XLSX writers of the per-document export: archives read back by an independent reader and
// by Python's zipfile, every XML part well-formed, cell values (text, numbers, characters XML cannot hold,
// formula-looking text) read back exactly.
import { describe, expect, it } from 'vitest';
import { writeZip, dosDateTime } from '../../main/domain/zip.ts';
import { columnName, writeXlsx, xstring, MAX_CELL_CHARS } from '../../main/domain/xlsx.ts';
import { hasPython, pythonCheck, readXlsx, readZip } from '../helpers/zip.ts';

const python = hasPython();

describe('ZIP writer', () => {
  const entries = [
    { name: 'a.txt', data: 'hello' }, // too short to gain from deflate: stored
    { name: 'dir/büro.xml', data: `<r>${'<x>repeat</x>'.repeat(500)}</r>` },
    { name: 'empty', data: Buffer.alloc(0) },
    { name: 'bin', data: Buffer.from([0, 255, 1, 254, 0x50, 0x4b, 0x05, 0x06]) },
  ];

  it('writes entries that read back byte for byte, deflating only what gets smaller', () => {
    const zip = writeZip(entries, { modified: new Date(2024, 4, 22, 13, 45, 30) });
    const read = readZip(zip);
    expect(read.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    read.forEach((e, i) => expect(e.data.equals(Buffer.from(entries[i].data as string))).toBe(true));
    expect(read.map((e) => e.method)).toEqual([0, 8, 0, 0]);
    expect(read.every((e) => e.flags === 0x0800)).toBe(true);
    expect(zip.length).toBeLessThan(1000); // the 7 kB of repeated XML deflated
  });

  it('stores everything when asked', () => {
    const read = readZip(writeZip(entries, { deflate: false }));
    expect(read.map((e) => e.method)).toEqual([0, 0, 0, 0]);
    expect(read[1].data.toString()).toBe(entries[1].data);
  });

  it('writes an empty archive and refuses duplicate or absolute names', () => {
    expect(readZip(writeZip([]))).toEqual([]);
    expect(() => writeZip([{ name: 'x', data: '' }, { name: 'x', data: '' }])).toThrow(/Duplicate/);
    expect(() => writeZip([{ name: '/etc/x', data: '' }])).toThrow(/Invalid/);
  });

  it('stores times as MS-DOS dates', () => {
    const { date, time } = dosDateTime(new Date(2024, 4, 22, 13, 45, 31));
    expect([date >> 9, (date >> 5) & 15, date & 31]).toEqual([44, 5, 22]);
    expect([time >> 11, (time >> 5) & 63, (time & 31) * 2]).toEqual([13, 45, 30]);
  });

  it.skipIf(!python)("opens in Python's zipfile with every CRC correct", () => {
    expect(pythonCheck(writeZip(entries))).toEqual(entries.map((e) => e.name));
  });
});

describe('XLSX writer', () => {
  const tricky = ['=HYPERLINK("http://evil","x")', '+1', '-2', '@SUM(A1)', 'a & b < c > "d"', 'tab\there\nline', 'ctrl\u0001\u001f', '_x0041_ stays', 'ünïcode 𝄞', '  spaces  '];
  const sheets = [
    { name: 'Documents', rows: [['id', 'text', 'amount'], [1, tricky[0], 12.5], [2, null, -0.19], [3, '', 1e21]] },
    { name: 'Tricky & <odd>', rows: [['value'], ...tricky.map((t) => [t])] },
  ];

  it('is a ZIP of the SpreadsheetML parts, every one well-formed XML', () => {
    const names = readZip(writeXlsx(sheets)).map((e) => e.name);
    expect(names).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']);
  });

  it.skipIf(!python)('parses in Python: zipfile and the XML parser', () => {
    expect(pythonCheck(writeXlsx(sheets))).toHaveLength(7);
  });

  it('writes numbers as number cells and text as inline strings, never a formula, values read back exactly', () => {
    const xlsx = writeXlsx(sheets);
    const read = readXlsx(xlsx);
    expect([...read.keys()]).toEqual(['Documents', 'Tricky & <odd>']);
    const docs = read.get('Documents')!;
    expect(docs[1]).toEqual([1, tricky[0], 12.5]);
    expect(docs[2][0]).toBe(2);
    expect(docs[2][1]).toBeUndefined(); // null: no cell
    expect(docs[2][2]).toBe(-0.19);
    expect(docs[3][2]).toBe(1e21);
    expect(read.get('Tricky & <odd>')!.slice(1).map((r) => r[0])).toEqual(tricky);
    const all = readZip(xlsx).map((e) => e.data.toString('utf8')).join('');
    expect(all).not.toMatch(/<f[ >]/);
    expect(all).toContain('t="inlineStr"');
  });

  it('makes the header row bold and frozen', () => {
    const sheet = readZip(writeXlsx(sheets)).find((e) => e.name === 'xl/worksheets/sheet1.xml')!.data.toString();
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toMatch(/<row r="1"><c r="A1" s="1" t="inlineStr">/);
    expect(sheet).toMatch(/<row r="2"><c r="A2"><v>1<\/v><\/c>/);
  });

  it('escapes for XML and SpreadsheetML', () => {
    expect(xstring('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
    expect(xstring('\u0001')).toBe('_x0001_');
    expect(xstring('_x00e9_')).toBe('_x005F_x00e9_');
    expect(xstring('\ud800 lone')).toBe('\ufffd lone');
  });

  it('cuts a cell at the 32,767 characters Excel takes', () => {
    const read = readXlsx(writeXlsx([{ name: 'S', rows: [['h'], ['x'.repeat(MAX_CELL_CHARS + 10)]] }]));
    expect((read.get('S')![1][0] as string).length).toBe(MAX_CELL_CHARS);
  });

  it('names columns A..Z, AA.., and refuses bad sheet names', () => {
    expect([0, 25, 26, 51, 52, 701, 702, 16383].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD']);
    expect(() => writeXlsx([])).toThrow(/at least one/);
    expect(() => writeXlsx([{ name: 'a/b', rows: [] }])).toThrow(/Invalid sheet name/);
    expect(() => writeXlsx([{ name: 'x'.repeat(32), rows: [] }])).toThrow(/Invalid sheet name/);
    expect(() => writeXlsx([{ name: 'S', rows: [] }, { name: 's', rows: [] }])).toThrow(/Duplicate/);
  });
});

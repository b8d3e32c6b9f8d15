// Issue 31 item 3: the separator findings (amounts with mixed or repeated marks normalized to null where
// the SDK's vectors read them) and the families around them, as tables: thousands and decimal marks,
// spaces between digits, currency marks, signs, percentages and date separators. Each family holds the
// shapes that must still be refused beside the ones that are read.
import { describe, expect, it } from 'vitest';
import { normalize, type DataType, type Normalized } from '../../main/domain/normalization.ts';

type Row = [input: string, expected: Normalized];

function table(dataType: DataType, rows: Row[]): void {
  it.each(rows)(`${dataType}: %j -> %j`, (input, expected) => {
    expect(normalize(input, dataType)).toBe(expected);
  });
}

describe('the SDK vectors of issue 31 (common OCR output)', () => {
  table('Number', [
    ['1.800.00', 1800],
    ['-2.905.00', -2905],
    ['1.234.56', 1234.56],
    ['4.187.184.13', 4187184.13],
    ['3.456,814,75', 3456814.75],
    ['034,466416.31', 34466416.31],
  ]);
  table('Positive Number', [
    ['-2.905.00', 2905],
    ['4.187.184.13', 4187184.13],
  ]);
});

describe('repeated marks: the last one before two cents is the decimal mark when every earlier one groups thousands', () => {
  table('Number', [
    ['1.800.00', 1800],
    ['12.345.67', 12345.67],
    ['123.456.78', 123456.78],
    ['1.234.567.89', 1234567.89],
    ['1.000.000.00', 1000000],
    ['1,234,567,89', 1234567.89],
    ['9.999.99-', -9999.99],
    ['(1.234.56)', -1234.56],
    ['1.234.56 €', 1234.56],
    ['€ 1.234.56', 1234.56],
    // refused: groups of two (dates, outline numbers), a leading zero, a bad group, one or three cents
    ['12.34.56', null],
    ['1.23.45', null],
    ['01.03.19', null],
    ['0.234.56', null],
    ['1.2345.67', null],
    ['1234.567.89', null],
    ['1.234.5', null],
    ['1.234.567', 1234567], // three digits last: all thousands (rule 5)
    ['1.234.5678', null],
    ['1..234.56', null],
    ['.234.56', null],
  ]);
});

describe('mixed marks: a thousands group of the other kind before the two cents', () => {
  table('Number', [
    ['3.456,814,75', 3456814.75],
    ['1.234,567,89', 1234567.89],
    ['1,234.567.89', 1234567.89],
    ['1.234,567.89', 1234567.89],
    ['12.345,678,90-', -12345678.9],
    // the clean shapes of rule 5 are unchanged
    ['1.234.567,89', 1234567.89],
    ['1,234,567.89', 1234567.89],
    ['1.234,56', 1234.56],
    ['1,234.56', 1234.56],
    // refused
    ['1.234,56.78', null], // a group of two before the cents
    ['1,234.56,7', null],
    ['3.456,814,7', null],
    ['3.4567,814,75', null],
    ['0.456,814,75', null],
  ]);
});

describe('one stray mark of the other kind inside the integer part, before a decimal mark and two cents', () => {
  table('Number', [
    ['034,466416.31', 34466416.31],
    ['034.466416,31', 34466416.31],
    ['1.2345,67', 12345.67],
    ['12,3456.78', 123456.78],
    ['-034,466416.31', -34466416.31],
    // refused: one or two digits after the stray mark could make it the decimal mark
    ['12,5.00', null],
    ['1.23,45', null],
    ['1,2.34', null],
    ['034,466416.3', null], // one digit is no cents
    ['034,466416.315', null],
    [',466416.31', null],
    ['1,2,3456.78', null],
  ]);
});

describe('spaces between digits: a thousands separator before exactly three digits, else refused', () => {
  table('Number', [
    ['1 234', 1234],
    ['1 234 567', 1234567],
    ['12 345,67', 12345.67],
    ['1 234.56', 1234.56],
    ['1\u00A0234,56', 1234.56], // no-break space
    ['1\u2009234,56', 1234.56], // thin space
    ['- 1 234,56', -1234.56],
    ['1 23', 1.23], // the cents gap (issue 10) still reads
    // refused
    ['12 3456', null],
    ['1 2 3', null],
    ['1234 567', null],
    ['1 2345', null],
    ['01.03 2019', null], // a date with a gap, not a number
    ['1 234 5678', null],
  ]);
  table('Percentage', [
    ['1 234,5 %', 12.345],
    ['12 3456 %', null],
  ]);
});

describe('currency marks are irrelevant signs on either side; currency codes (letters) are not', () => {
  table('Number', [
    ['€1.234,56', 1234.56],
    ['1.234,56€', 1234.56],
    ['1.234,56 €', 1234.56],
    ['$1,234.56', 1234.56],
    ['US$ 1,234.56', null],
    ['£ 99.95', 99.95],
    ['¥1,000', 1000],
    ['₹ 1,234.50', 1234.5],
    ['CHF 1\'234.50', null],
    ['1.234,56 EUR', null],
    ['EUR 1.234,56', null],
    ['€ € 12', 12],
    ['€', null],
    ['€ -', 0], // rule 1: only a dash
  ]);
});

describe('signs around separators and currency marks', () => {
  table('Number', [
    ['-1.234,56', -1234.56],
    ['1.234,56-', -1234.56],
    ['(1.234,56)', -1234.56],
    ['+1.234,56', 1234.56],
    ['- 1.234,56 €', -1234.56],
    ['-€1.234,56', -1234.56],
    ['€-1.234,56', -1234.56],
    ['−1.234,56', -1234.56], // U+2212 minus sign
    ['‒1.234,56', -1234.56], // figure dash
    ['1.234,56 S', -1234.56],
    ['1.234,56 H', 1234.56],
    ['-1.800.00', -1800],
    ['1.800.00-', -1800],
    // refused
    ['+-1.234,56', null],
    ['-1.234,56+', null],
    ['(1.234,56', null],
    ['1.234,56)', null],
    ['1.234-56', null],
    ['--1.234,56', null],
  ]);
  table('Positive Number', [
    ['-1.800.00', 1800],
    ['(3.456,814,75)', 3456814.75],
    ['1.234,56-', 1234.56],
  ]);
});

describe('percentages with separators and signs', () => {
  table('Percentage', [
    ['12,5 %', 0.125],
    ['12.5%', 0.125],
    ['1.234,5 %', 12.345],
    ['3.456,814,75 %', 34568.1475],
    ['1.800.00 %', 18],
    ['% 12,5', 0.125],
    ['12,5 %-', 0.125], // a trailing dash is not negative
    ['-12,5 %', -0.125],
    ['+5 %', 0.05],
    ['0,00 %', 0],
    ['12,345 %', 0.1235],
    // refused
    ['1,5‰', null], // per mille is no percent sign
    ['12 % %', null],
    ['12,5 % 3', null],
    ['12.34.56 %', null],
    ['%', null],
    ['12,5 Prozent', null],
  ]);
});

describe('date separators: dot, slash, dash, one kind per date', () => {
  table('Date', [
    ['01.03.2019', '2019-03-01'],
    ['01/03/2019', '2019-03-01'],
    ['01-03-2019', '2019-03-01'],
    ['1.3.2019', '2019-03-01'],
    ['1-3-2019', '2019-03-01'],
    ['01.03.19', '2019-03-01'],
    ['01/03/19', '2019-03-01'],
    ['01-03-19', '2019-03-01'],
    ['2019-03-01', '2019-03-01'],
    ['2019/03/01', '2019-03-01'],
    ['2019.03.01', '2019-03-01'],
    ['01 .03.2019', '2019-03-01'],
    ['01. 03. 2019', '2019-03-01'],
    ['01.03.2019.', '2019-03-01'],
    // refused
    ['01.03/2019', null],
    ['01-03.2019', null],
    ['2019-03/01', null],
    ['01..03.2019', null],
    ['01.03.20.19', null],
    ['01 03 2019', null],
    ['01.03.2019.2019', null],
    ['1.234.56', null], // an amount, not a date
  ]);
});

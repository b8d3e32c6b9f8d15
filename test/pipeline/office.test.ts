// Office conversion with the real LibreOffice (installed by .ci/run): generated DOCX and XLSX become
// PDFs with their text; LibreOffice's own .doc/.xls/.odt/.ods/.rtf are recognised and converted; damage,
// time limits, a missing binary and the concurrency cap are checked with stand-in `soffice` scripts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficeConversionError, OfficeUnavailableError } from '../../main/pipeline/errors.ts';
import { convertOffice, convertOfficeToPdf, findSoffice, officeAvailable } from '../../main/pipeline/office.ts';
import { extractPdfText } from '../../main/pipeline/pdfText.ts';
import { sniff } from '../../main/pipeline/sniff.ts';
import { makeDocx, makeXlsx, writeZip } from '../fixtures/ooxml.ts';

const textOf = async (pdf: Uint8Array) => (await extractPdfText(pdf)).map((p) => p.chars.map((c) => c.text).join('')).join('\n');

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

let tmp: string;
/** A fresh folder for one test's conversions: empty again afterwards, or a run left something behind. */
const runDir = () => fs.mkdtempSync(path.join(tmp, 'runs-'));

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-office-test-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Processes whose command line mentions `marker` (Linux /proc): none may outlive a conversion. */
function processesMentioning(marker: string): number[] {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  }).map(Number);
}

// In CI LibreOffice is installed by .ci/run, so a missing one fails there; a developer machine without it skips.
const haveOffice = officeAvailable();
describe.skipIf(!haveOffice && !process.env.CI)('convertOfficeToPdf with LibreOffice', () => {
  it('finds LibreOffice', () => {
    expect(findSoffice()).toMatch(/soffice|libreoffice/i);
  });

  it('converts a DOCX to a PDF with its text', { timeout: 120_000 }, async () => {
    const dir = runDir();
    const started = performance.now();
    const pdf = await convertOfficeToPdf(makeDocx(['Folio converts Word files', 'Rechnung Nr. 4711 über 99,50 €']), 'docx', { tmpDir: dir });
    console.log(`[office] DOCX -> PDF in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    expect(sniff(pdf).kind).toBe('pdf');
    const text = await textOf(pdf);
    expect(text).toContain('Folio converts Word files');
    expect(text).toContain('Rechnung Nr. 4711 über 99,50 €');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('converts an XLSX to a PDF with its cells', { timeout: 120_000 }, async () => {
    const dir = runDir();
    const started = performance.now();
    const pdf = await convertOfficeToPdf(makeXlsx([['Item', 'Amount'], ['Widget', 42.5], ['Gadget', 7]]), 'xlsx', { tmpDir: dir });
    console.log(`[office] XLSX -> PDF in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    const text = await textOf(pdf);
    for (const cell of ['Item', 'Amount', 'Widget', '42.5', 'Gadget']) expect(text).toContain(cell);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('recognises the .doc, .xls, .odt, .ods and .rtf files LibreOffice writes, and converts them back', { timeout: 180_000 }, async () => {
    const docx = makeDocx(['Round trip through old formats']);
    const xlsx = makeXlsx([['Round', 'trip'], ['Total', 12.25]]);
    const made = await Promise.all([
      convertOffice(docx, 'docx', 'doc'),
      convertOffice(xlsx, 'xlsx', 'xls'),
      convertOffice(docx, 'docx', 'odt'),
      convertOffice(xlsx, 'xlsx', 'ods'),
      convertOffice(docx, 'docx', 'rtf'),
    ]);
    expect(made.map((bytes) => sniff(bytes).format)).toEqual(['doc', 'xls', 'odt', 'ods', 'rtf']);
    const [doc, xls] = await Promise.all([convertOfficeToPdf(made[0], 'doc'), convertOfficeToPdf(made[1], 'xls')]);
    expect(await textOf(doc)).toContain('Round trip through old formats');
    expect(await textOf(xls)).toContain('12.25');
  });

  it('refuses a corrupt DOCX with a clear 400 and leaves no temporary folder', { timeout: 120_000 }, async () => {
    const dir = runDir();
    const corrupt = writeZip([
      { name: '[Content_Types].xml', data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
      { name: 'word/document.xml', data: '<w:document xmlns:w="broken <<< not xml' },
    ]);
    expect(sniff(corrupt).format).toBe('docx');
    const err = await rejection(convertOfficeToPdf(corrupt, 'docx', { tmpDir: dir }));
    expect(err).toBeInstanceOf(OfficeConversionError);
    expect((err as OfficeConversionError).status).toBe(400);
    expect(err.message).toMatch(/^LibreOffice could not convert the file to PDF\. It may be damaged or protected with a password/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('kills LibreOffice at the time limit, with everything it started', { timeout: 120_000 }, async () => {
    const dir = runDir();
    const err = await rejection(convertOfficeToPdf(makeDocx(['Too slow']), 'docx', { tmpDir: dir, timeoutMs: 300 }));
    expect(err).toBeInstanceOf(OfficeConversionError);
    expect(err.message).toMatch(/^LibreOffice did not finish converting the file within 0.3 s/);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(processesMentioning(dir)).toEqual([]);
  });
});

describe('LibreOffice missing or misbehaving', () => {
  it('says how to enable office files when there is no LibreOffice', async () => {
    const env = { ...process.env, FOLIO_SOFFICE: path.join(tmp, 'no-such-soffice') };
    expect(officeAvailable(env)).toBe(false);
    const err = await rejection(convertOfficeToPdf(makeDocx(['x']), 'docx', { env }));
    expect(err).toBeInstanceOf(OfficeUnavailableError);
    const e = err as OfficeUnavailableError;
    expect(e.status).toBe(415);
    expect(e.body.data_file[0]).toContain('converted to PDF with LibreOffice');
    expect(e.message).toContain(`FOLIO_SOFFICE is set to "${env.FOLIO_SOFFICE}", which is not an executable file.`);
    expect(e.message).toMatch(/To enable them, install LibreOffice .*, or set FOLIO_SOFFICE to the path of its soffice program\./);
  });

  describe.runIf(process.platform !== 'win32')('with stand-in soffice scripts', () => {
    /** An executable shell script standing in for soffice. */
    const script = (name: string, body: string) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
      return file;
    };

    it('finds soffice on PATH when FOLIO_SOFFICE is not set', () => {
      const bin = fs.mkdtempSync(path.join(tmp, 'bin-'));
      fs.writeFileSync(path.join(bin, 'soffice'), '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(bin, 'libreoffice'), 'not executable', { mode: 0o644 });
      expect(findSoffice({ PATH: bin })).toBe(path.join(bin, 'soffice'));
      expect(findSoffice({ PATH: bin, FOLIO_SOFFICE: path.join(bin, 'libreoffice') })).toBeNull();
    });

    it('does not trust the exit code: no output file is a failure', async () => {
      const dir = runDir();
      const env = { ...process.env, FOLIO_SOFFICE: script('silent-soffice', 'echo "Error: source file could not be loaded" >&2; exit 0') };
      const err = await rejection(convertOfficeToPdf(makeDocx(['x']), 'docx', { env, tmpDir: dir }));
      expect(err).toBeInstanceOf(OfficeConversionError);
      // LibreOffice's own words go to the log (detail), not to the reviewer (issue 31).
      expect((err as OfficeConversionError).detail).toBe('Error: source file could not be loaded');
      expect(err.message).not.toContain('source file could not be loaded');
      expect(fs.readdirSync(dir)).toEqual([]);
    });

    it.runIf(process.platform === 'linux')('kills the whole process group at the time limit', async () => {
      const dir = runDir();
      const marker = `31.${process.pid}`; // a unique sleep length to find the grandchild by
      const env = { ...process.env, FOLIO_SOFFICE: script('hanging-soffice', `sleep ${marker} &\nwait`) };
      const started = performance.now();
      const err = await rejection(convertOfficeToPdf(makeDocx(['x']), 'docx', { env, tmpDir: dir, timeoutMs: 200 }));
      expect(err).toBeInstanceOf(OfficeConversionError);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(processesMentioning(`sleep ${marker}`)).toEqual([]);
      expect(fs.readdirSync(dir)).toEqual([]);
    });

    it('runs at most 2 conversions at once; the others wait their turn', async () => {
      const log = path.join(tmp, 'concurrency.log');
      const env = { ...process.env, FOLIO_SOFFICE: script('slow-soffice', `echo start >> "${log}"; sleep 0.3; echo end >> "${log}"`) };
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => convertOfficeToPdf(makeDocx(['x']), 'docx', { env })));
      expect(results.every((r) => r.status === 'rejected' && r.reason instanceof OfficeConversionError)).toBe(true);
      let active = 0;
      let most = 0;
      for (const line of fs.readFileSync(log, 'utf8').trim().split('\n')) {
        active += line === 'start' ? 1 : -1;
        most = Math.max(most, active);
      }
      expect(most).toBe(2);
    });
  });
});

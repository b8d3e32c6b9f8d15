// OCR languages (spec 2.16): the name-to-model table, which models count as installed, and how requested
// languages are resolved or refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../main/domain/errors.ts';
import {
  bundledTraineddata,
  checkTraineddata,
  describeLanguages,
  installedLanguages,
  modelCode,
  OCR_LANGUAGES,
  resolveLanguages,
  systemTessdataDirs,
  tessdataDir,
} from '../../main/pipeline/languages.ts';

// These tests are about the bundled models and the data folder: the machine's own tesseract models (its
// /usr/share/tesseract-ocr/5/tessdata) are left out here and tested with folders of their own below.
process.env.FOLIO_SYSTEM_TESSDATA = '';

const SPEC = path.resolve(import.meta.dirname, '../../../shared/spec/api-spec.md');

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-lang-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function addModel(code: string, content = 'model'): string {
  fs.mkdirSync(tessdataDir(dataDir), { recursive: true });
  const file = path.join(tessdataDir(dataDir), `${code}.traineddata`);
  fs.writeFileSync(file, content);
  return file;
}

function fieldErrors(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).fields;
  }
  throw new Error('expected a ValidationError');
}

describe('the spec 2.16 table', () => {
  it.skipIf(!fs.existsSync(SPEC))('names exactly the languages of spec 2.16, in its order', () => {
    const section = fs.readFileSync(SPEC, 'utf8').split('### 2.16 OCR languages')[1].split('\n\n')[1];
    const names = section.slice(section.indexOf(':') + 1).replace(/\.\s*$/, '').split('|').map((s) => s.trim());
    expect(names.length).toBeGreaterThan(100);
    expect(OCR_LANGUAGES.map((l) => l.name)).toEqual(names);
  });

  it.each([
    ['English', 'eng'],
    ['German', 'deu'],
    ['French', 'fra'],
    ['Chinese Simplified', 'chi_sim'],
    ['Chinese Traditional', 'chi_tra'],
    ['Serbian (Latin)', 'srp_latn'],
    ['Serbian (Cyrillic)', 'srp'],
    ['Uzbek (Cyrillic)', 'uzb_cyrl'],
    ['Uzbek (Latin)', 'uzb'],
    ['Azerbaijani (Latin)', 'aze'],
    ['Kazakh (Cyrillic)', 'kaz'],
    ['Kurdish (Latin)', 'kmr'],
    ['Albanian', 'sqi'],
    ['Basque', 'eus'],
    ['Czech', 'ces'],
    ['Dutch', 'nld'],
    ['Malay (Latin)', 'msa'],
    ['Scottish Gaelic', 'gla'],
    ['Western Frisian', 'fry'],
    ['Welsh', 'cym'],
    ['Tatar (Latin)', 'tat'],
    // Names tesseract has no model for, or only in another script.
    ['Asturian', null],
    ['Inuktitut (Latin)', null],
    ['Kazakh (Latin)', null],
    ['Belarusian (Latin)', null],
    ['Zulu', null],
    ["K'iche'", null],
  ])('%s reads with %s', (name, code) => {
    expect(OCR_LANGUAGES.find((l) => l.name === name)?.code).toBe(code);
  });

  it('maps no two names to one model and uses tesseract code syntax', () => {
    const codes = OCR_LANGUAGES.map((l) => l.code).filter((c): c is string => c !== null);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^[a-z]{3}(_[a-z]+)?$/);
  });
});

describe('installed models', () => {
  it('are eng and deu from node_modules when the data folder has none', () => {
    const installed = installedLanguages(dataDir);
    expect([...installed.keys()].sort()).toEqual(['deu', 'eng']);
    for (const t of bundledTraineddata()) {
      expect(t.file).toContain(`${path.sep}4.0.0_best_int${path.sep}`);
      expect(fs.statSync(t.file).size).toBeGreaterThan(500_000);
      expect(installed.get(t.code)).toMatchObject({ source: 'bundled', gzip: true });
    }
  });

  it('add every <code>.traineddata in <dataDir>/tessdata, which win over bundled ones', () => {
    const fra = addModel('fra');
    const eng = addModel('eng');
    addModel('chi_sim');
    addModel('osd'); // orientation detection, not a language
    fs.writeFileSync(path.join(tessdataDir(dataDir), 'notes.txt'), 'x');
    fs.writeFileSync(path.join(tessdataDir(dataDir), 'Bad Name.traineddata'), 'x');
    fs.mkdirSync(path.join(tessdataDir(dataDir), 'dir.traineddata'));
    const installed = installedLanguages(dataDir);
    expect([...installed.keys()].sort()).toEqual(['chi_sim', 'deu', 'eng', 'fra']);
    expect(installed.get('fra')).toEqual({ code: 'fra', file: fra, gzip: false, source: 'data' });
    expect(installed.get('eng')).toMatchObject({ file: eng, source: 'data' });
    expect(installed.get('deu')?.source).toBe('bundled');
  });

  it('are listed for the languages endpoint: every spec language with its state, then extra codes', () => {
    addModel('fra');
    addModel('hin'); // a tesseract language the spec does not name
    const rows = describeLanguages(dataDir);
    expect(rows).toHaveLength(OCR_LANGUAGES.length + 1);
    const row = (name: string) => rows.find((r) => r.name === name);
    expect(row('English')).toEqual({ name: 'English', code: 'eng', installed: true, source: 'bundled' });
    expect(row('French')).toEqual({ name: 'French', code: 'fra', installed: true, source: 'data' });
    expect(row('Italian')).toEqual({ name: 'Italian', code: 'ita', installed: false, source: null });
    expect(row('Asturian')).toEqual({ name: 'Asturian', code: null, installed: false, source: null });
    expect(rows[rows.length - 1]).toEqual({ name: 'hin', code: 'hin', installed: true, source: 'data' });
  });
});

describe('resolveLanguages', () => {
  it.each<[string | string[], string[]]>([
    ['English', ['eng']],
    ['german', ['deu']],
    ['deu', ['deu']],
    ['ENG', ['eng']],
    [['German', 'English'], ['deu', 'eng']],
    ['eng+deu', ['eng', 'deu']],
    ['English, German', ['eng', 'deu']],
    [['eng', 'English', 'deu'], ['eng', 'deu']],
  ])('%j gives %j', (wanted, codes) => {
    expect(resolveLanguages(wanted, dataDir)).toEqual(codes);
  });

  it('accepts installed models by name or code, spec names with scripts included', () => {
    addModel('fra');
    addModel('srp_latn');
    addModel('hin');
    expect(resolveLanguages(['French', 'Serbian (Latin)', 'hin', 'eng'], dataDir)).toEqual(['fra', 'srp_latn', 'hin', 'eng']);
  });

  it('refuses with one message per language that cannot be read, saying how to install it', () => {
    const errors = fieldErrors(() => resolveLanguages(['English', 'French', 'Chinese Simplified', 'Asturian', 'Klingon', 'xyz', '../eng'], dataDir, 'ocr_languages'));
    expect(Object.keys(errors)).toEqual(['ocr_languages']);
    const [french, chinese, asturian, klingon, xyz, traversal] = errors.ocr_languages;
    expect(errors.ocr_languages).toHaveLength(6);
    expect(french).toContain('"French" (fra) is not installed');
    expect(french).toContain('apt-get install tesseract-ocr-fra');
    expect(french).toContain(path.join(dataDir, 'tessdata'));
    expect(chinese).toContain('tesseract-ocr-chi-sim');
    expect(chinese).toContain('chi_sim.traineddata');
    expect(asturian).toContain('"Asturian" has no tesseract model');
    expect(klingon).toContain('"Klingon" is not an OCR language');
    expect(xyz).toContain('no xyz.traineddata is installed');
    expect(traversal).toContain('is not an OCR language');
  });

  it('refuses an empty request', () => {
    expect(fieldErrors(() => resolveLanguages([], dataDir, 'langs'))).toEqual({ langs: ['Name at least one OCR language.'] });
    expect(() => resolveLanguages(' + ', dataDir)).toThrow(ValidationError);
  });
});

// Issue 31: the machine's own tesseract models count as installed, without copying them.
describe("the machine's tesseract models", () => {
  let machine: string;
  let other: string;
  beforeEach(() => {
    machine = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-system-tessdata-'));
    other = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-system-tessdata-'));
  });
  afterEach(() => {
    fs.rmSync(machine, { recursive: true, force: true });
    fs.rmSync(other, { recursive: true, force: true });
  });
  const put = (dir: string, name: string) => {
    fs.writeFileSync(path.join(dir, name), 'model');
    return path.join(dir, name);
  };

  it('are installed from their folder as they are; bundled eng/deu and the data folder win over them', () => {
    const fra = put(machine, 'fra.traineddata');
    put(machine, 'eng.traineddata');
    put(machine, 'osd.traineddata');
    put(machine, 'pdf.ttf');
    const installed = installedLanguages(dataDir, [machine]);
    expect([...installed.keys()].sort()).toEqual(['deu', 'eng', 'fra']);
    expect(installed.get('fra')).toEqual({ code: 'fra', file: fra, gzip: false, source: 'system' });
    expect(installed.get('eng')?.source).toBe('bundled');
    const mine = addModel('fra');
    expect(installedLanguages(dataDir, [machine]).get('fra')).toMatchObject({ file: mine, source: 'data' });
    expect(fs.existsSync(path.join(dataDir, 'tessdata', 'eng.traineddata'))).toBe(false); // nothing was copied
  });

  it('the first folder wins; missing folders are skipped', () => {
    const first = put(machine, 'ita.traineddata');
    put(other, 'ita.traineddata');
    put(other, 'spa.traineddata');
    const installed = installedLanguages(dataDir, [machine, other, '/nonexistent/tessdata']);
    expect(installed.get('ita')?.file).toBe(first);
    expect(installed.get('spa')?.source).toBe('system');
    expect(describeLanguages(dataDir).find((l) => l.name === 'Italian')?.installed).toBe(false); // FOLIO_SYSTEM_TESSDATA is '' in this file
  });

  it('come from FOLIO_SYSTEM_TESSDATA, else TESSDATA_PREFIX and the packages folders', () => {
    expect(systemTessdataDirs({ FOLIO_SYSTEM_TESSDATA: [machine, '/nonexistent', other].join(path.delimiter) })).toEqual([machine, other]);
    expect(systemTessdataDirs({ FOLIO_SYSTEM_TESSDATA: 'off', TESSDATA_PREFIX: machine })).toEqual([]);
    expect(systemTessdataDirs({ FOLIO_SYSTEM_TESSDATA: '' })).toEqual([]);
    fs.mkdirSync(path.join(other, 'tessdata'));
    const found = systemTessdataDirs({ TESSDATA_PREFIX: other });
    expect(found.slice(0, 2)).toEqual([other, path.join(other, 'tessdata')]);
    if (fs.existsSync('/usr/share/tesseract-ocr/5/tessdata')) expect(found).toContain('/usr/share/tesseract-ocr/5/tessdata');
  });
});

describe('checkTraineddata and modelCode: what an administrator may add', () => {
  /** The bundled English model, uncompressed: a real tesseract 4 model. */
  const real = () => gunzipSync(fs.readFileSync(bundledTraineddata().find((t) => t.code === 'eng')!.file));
  /** A model file of entries (null: absent) laid out as tesseract's TessdataManager writes one. */
  const layout = (entries: (Buffer | null)[]) => {
    const table = Buffer.alloc(4 + 8 * entries.length);
    table.writeUInt32LE(entries.length, 0);
    let at = table.length;
    entries.forEach((e, i) => {
      table.writeBigInt64LE(e ? BigInt(at) : -1n, 4 + 8 * i);
      at += e?.length ?? 0;
    });
    return Buffer.concat([table, ...entries.filter((e): e is Buffer => e !== null)]);
  };
  const lstmModel = (version: string | null) =>
    layout(Array.from({ length: 24 }, (_, i) => ([17, 18, 21, 22].includes(i) ? Buffer.alloc(100, i) : i === 23 && version !== null ? Buffer.from(version) : null)));

  it.each([
    ['the bundled eng model', () => real(), /^4\.00\.00alpha/],
    ['an LSTM model with its version string', () => lstmModel('5.3.0:xyz'), /^5\.3\.0:xyz$/],
    ['an LSTM model without a version', () => lstmModel(null), null],
  ] as const)('accepts %s', (_, bytes, version) => {
    const v = checkTraineddata(bytes()).version;
    if (version === null) expect(v).toBeNull();
    else expect(v).toMatch(version);
  });

  it.each([
    ['nothing', () => Buffer.alloc(0), /not a tesseract \.traineddata file/],
    ['random bytes', () => Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 2654435761) & 0xff)), /not a tesseract \.traineddata file/],
    ['a PDF', () => Buffer.from('%PDF-1.4\n' + 'x'.repeat(5000)), /not a tesseract \.traineddata file/],
    ['a cut-short model', () => real().subarray(0, 300_000), /points outside the file/],
    ['a table whose first entry does not follow it', () => { const b = lstmModel('v'); b.writeBigInt64LE(BigInt(b.length - 10), 4 + 8 * 17); return b; }, /not a tesseract/],
    ['a legacy model without an LSTM network', () => layout(Array.from({ length: 24 }, (_, i) => (i < 9 ? Buffer.alloc(50, i) : null))), /no LSTM network/],
    ['an LSTM network without its recoder', () => layout(Array.from({ length: 24 }, (_, i) => ([17, 21].includes(i) ? Buffer.alloc(50, i) : null))), /no LSTM network/],
    ['too many entries', () => { const b = Buffer.alloc(20_000); b.writeUInt32LE(5000, 0); return b; }, /not a tesseract/],
  ] as const)('refuses %s', (_, bytes, reason) => {
    expect(() => checkTraineddata(bytes())).toThrow(reason);
  });

  it.each([
    ['fra.traineddata', undefined, 'fra'],
    ['chi_sim.traineddata', undefined, 'chi_sim'],
    ['FRA.TRAINEDDATA', undefined, 'fra'],
    ['C:\\models\\ita.traineddata', undefined, 'ita'],
    ['download.bin', 'spa', 'spa'],
  ])('names %j (code %j) %s', (name, code, expected) => expect(modelCode(name, code)).toBe(expected));

  it.each([
    ['model.bin', undefined, /not a model name/],
    ['fr.traineddata', undefined, /not a model name/],
    ['../eng.traineddata.gz', undefined, /not a model name/],
    ['x.traineddata', '../../etc', /not a model name/],
    ['osd.traineddata', undefined, /not a reading language/],
    ['equ.traineddata', undefined, /not a reading language/],
  ])('refuses the name %j (code %j)', (name, code, reason) => expect(() => modelCode(name, code)).toThrow(reason));
});

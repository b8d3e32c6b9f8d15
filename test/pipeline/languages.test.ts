// OCR languages (spec 2.16): the name-to-model table, which models count as installed, and how requested
// languages are resolved or refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../main/domain/errors.ts';
import {
  bundledTraineddata,
  describeLanguages,
  installedLanguages,
  OCR_LANGUAGES,
  resolveLanguages,
  tessdataDir,
} from '../../main/pipeline/languages.ts';

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

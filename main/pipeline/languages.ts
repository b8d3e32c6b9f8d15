// The OCR languages of spec 2.16, the tesseract models that read them, and which of those models this
// installation has: eng and deu ship with Folio, any other `<code>.traineddata` goes into <dataDir>/tessdata.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ValidationError } from '../domain/errors.ts';

/** A language of spec 2.16 and its tesseract model code; null where tesseract has no model for it. */
export interface OcrLanguage {
  name: string;
  code: string | null;
}

/** Spec 2.16 in its own order. Codes are tesseract's (tessdata / Debian `tesseract-ocr-<code>`); a name
 * gets a code only where that model reads the named script: tesseract's iku is syllabics, not Latin;
 * its tat is Latin; its kmr is Kurmanji in Latin script. */
export const OCR_LANGUAGES: readonly OcrLanguage[] = [
  ['Afrikaans', 'afr'], ['Albanian', 'sqi'], ['Asturian', null], ['Azerbaijani (Latin)', 'aze'], ['Basque', 'eus'],
  ['Belarusian (Cyrillic)', 'bel'], ['Belarusian (Latin)', null], ['Bislama', null], ['Bosnian (Latin)', 'bos'],
  ['Breton', 'bre'], ['Bulgarian', 'bul'], ['Buryat (Cyrillic)', null], ['Catalan', 'cat'], ['Cebuano', 'ceb'],
  ['Chamorro', null], ['Chinese Simplified', 'chi_sim'], ['Chinese Traditional', 'chi_tra'], ['Cornish', null],
  ['Corsican', 'cos'], ['Crimean Tatar (Latin)', null], ['Croatian', 'hrv'], ['Czech', 'ces'], ['Danish', 'dan'],
  ['Dutch', 'nld'], ['English', 'eng'], ['Erzya (Cyrillic)', null], ['Estonian', 'est'], ['Faroese', 'fao'],
  ['Fijian', null], ['Filipino', 'fil'], ['Finnish', 'fin'], ['French', 'fra'], ['Friulian', null],
  ['Gagauz (Latin)', null], ['Galician', 'glg'], ['German', 'deu'], ['Gilbertese', null], ['Greenlandic', null],
  ['Haitian Creole', 'hat'], ['Hani', null], ['Hawaiian', null], ['Hmong Daw (Latin)', null], ['Hungarian', 'hun'],
  ['Icelandic', 'isl'], ['Inari Sami', null], ['Indonesian', 'ind'], ['Interlingua', null],
  ['Inuktitut (Latin)', null], ['Irish', 'gle'], ['Italian', 'ita'], ['Japanese', 'jpn'], ['Javanese', 'jav'],
  ["K'iche'", null], ['Kabuverdianu', null], ['Kachin (Latin)', null], ['Kara-Kalpak (Latin)', null],
  ['Kara-Kalpak (Cyrillic)', null], ['Karachay-Balkar', null], ['Kashubian', null], ['Kazakh (Cyrillic)', 'kaz'],
  ['Kazakh (Latin)', null], ['Khasi', null], ['Korean', 'kor'], ['Koryak', null], ['Kosraean', null],
  ['Kumyk (Cyrillic)', null], ['Kurdish (Latin)', 'kmr'], ['Kyrgyz (Cyrillic)', 'kir'], ['Lakota', null],
  ['Latin', 'lat'], ['Lithuanian', 'lit'], ['Lower Sorbian', null], ['Lule Sami', null], ['Luxembourgish', 'ltz'],
  ['Malay (Latin)', 'msa'], ['Maltese', 'mlt'], ['Manx', null], ['Maori', 'mri'], ['Mongolian (Cyrillic)', 'mon'],
  ['Montenegrin (Cyrillic)', null], ['Montenegrin (Latin)', null], ['Neapolitan', null], ['Niuean', null],
  ['Nogay', null], ['Northern Sami (Latin)', null], ['Norwegian', 'nor'], ['Occitan', 'oci'], ['Ossetic', null],
  ['Polish', 'pol'], ['Portuguese', 'por'], ['Ripuarian', null], ['Romanian', 'ron'], ['Romansh', null],
  ['Russian', 'rus'], ['Samoan (Latin)', null], ['Scots', null], ['Scottish Gaelic', 'gla'],
  ['Serbian (Cyrillic)', 'srp'], ['Serbian (Latin)', 'srp_latn'], ['Skolt Sami', null], ['Slovak', 'slk'],
  ['Slovenian', 'slv'], ['Southern Sami', null], ['Spanish', 'spa'], ['Swahili (Latin)', 'swa'], ['Swedish', 'swe'],
  ['Tajik (Cyrillic)', 'tgk'], ['Tatar (Latin)', 'tat'], ['Tetum', null], ['Tongan', 'ton'], ['Turkish', 'tur'],
  ['Turkmen (Latin)', null], ['Tuvan', null], ['Upper Sorbian', null], ['Uzbek (Cyrillic)', 'uzb_cyrl'],
  ['Uzbek (Latin)', 'uzb'], ['Volapuk', null], ['Walser', null], ['Welsh', 'cym'], ['Western Frisian', 'fry'],
  ['Yucatec Maya', null], ['Zhuang', null], ['Zulu', null],
].map(([name, code]) => Object.freeze({ name: name as string, code }));

/** Models that ship in node_modules. The `4.0.0_best_int` variant: the same integer LSTM network as the
 * `4.0.0` files (identical lstm component) without the legacy-engine parts Folio never runs, 5 MB instead of 23. */
const BUNDLED_PACKAGES: Record<string, string> = { eng: '@tesseract.js-data/eng', deu: '@tesseract.js-data/deu' };
const BUNDLED_VARIANT = '4.0.0_best_int';

/** Files in a tessdata folder that are not reading languages (orientation detection, legacy equations). */
const NOT_LANGUAGES = new Set(['osd', 'equ']);
/** What a code may look like; it becomes a file name, so nothing else gets near the file system. */
const CODE_PATTERN = /^[a-z]{3}(_[a-z]+)*$/;

/** What a new project reads with (migration 0005 sets the same default). */
export const DEFAULT_OCR_LANGUAGES: readonly string[] = ['deu', 'eng'];

/** Where one installed model is. `gzip` files are gunzipped before tesseract reads them. */
export interface TraineddataFile {
  code: string;
  file: string;
  gzip: boolean;
  source: 'bundled' | 'data';
}

const require = createRequire(import.meta.url);

/** The folder for extra models: Debian's /usr/share/tesseract-ocr/5/tessdata/<code>.traineddata work as is. */
export function tessdataDir(dataDir: string): string {
  return path.join(dataDir, 'tessdata');
}

export function bundledTraineddata(): TraineddataFile[] {
  return Object.entries(BUNDLED_PACKAGES).map(([code, pkg]) => ({
    code,
    file: path.join(path.dirname(require.resolve(`${pkg}/package.json`)), BUNDLED_VARIANT, `${code}.traineddata.gz`),
    gzip: true,
    source: 'bundled' as const,
  }));
}

/** Every model this installation can read with, by code. A file in the data folder wins over a bundled
 * one of the same code: that is how a user swaps in, say, tessdata_best's eng. */
export function installedLanguages(dataDir: string): Map<string, TraineddataFile> {
  const found = new Map<string, TraineddataFile>();
  for (const t of bundledTraineddata()) found.set(t.code, t);
  let names: string[] = [];
  try {
    names = fs.readdirSync(tessdataDir(dataDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const name of names.sort()) {
    const m = /^(.+)\.traineddata$/.exec(name);
    if (!m || !CODE_PATTERN.test(m[1]) || NOT_LANGUAGES.has(m[1])) continue;
    const file = path.join(tessdataDir(dataDir), name);
    if (!fs.statSync(file).isFile()) continue;
    found.set(m[1], { code: m[1], file, gzip: false, source: 'data' });
  }
  return found;
}

/** One row of the languages endpoint. */
export interface OcrLanguageStatus {
  name: string;
  code: string | null;
  installed: boolean;
  /** Where the model comes from when installed. */
  source: 'bundled' | 'data' | null;
}

/** The spec's languages with their install state, then models installed for codes the spec does not name
 * (a user may add any tesseract language; its name is its code). */
export function describeLanguages(dataDir: string): OcrLanguageStatus[] {
  const installed = installedLanguages(dataDir);
  const named = new Set(OCR_LANGUAGES.map((l) => l.code));
  const rows: OcrLanguageStatus[] = OCR_LANGUAGES.map(({ name, code }) => {
    const t = code === null ? undefined : installed.get(code);
    return { name, code, installed: t !== undefined, source: t?.source ?? null };
  });
  for (const t of installed.values()) if (!named.has(t.code)) rows.push({ name: t.code, code: t.code, installed: true, source: t.source });
  return rows;
}

const BY_NAME = new Map(OCR_LANGUAGES.map((l) => [fold(l.name), l]));
const BY_CODE = new Map(OCR_LANGUAGES.filter((l) => l.code !== null).map((l) => [l.code as string, l]));

function fold(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** How to get the model for `code` onto this machine. */
function installHint(code: string, dataDir: string): string {
  return `install it with "apt-get install tesseract-ocr-${code.replace(/_/g, '-')}" (or take ${code}.traineddata from tessdata) and copy ${code}.traineddata into ${tessdataDir(dataDir)}`;
}

/**
 * Turns the languages a caller asked for (spec names like "German" or tesseract codes like "deu", in a list
 * or joined with "+" or ",") into installed model codes, in the order given, without repeats.
 * Throws a ValidationError on `field` naming every language that is unknown, has no model, or is not installed.
 */
export function resolveLanguages(wanted: string | readonly string[], dataDir: string, field = 'ocr_languages'): string[] {
  const items = (typeof wanted === 'string' ? [wanted] : [...wanted])
    .flatMap((w) => String(w).split(/[+,]/))
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (items.length === 0) throw ValidationError.of(field, 'Name at least one OCR language.');
  const installed = installedLanguages(dataDir);
  const codes: string[] = [];
  const errors: string[] = [];
  for (const item of items) {
    const lower = item.toLowerCase();
    const byName = BY_NAME.get(fold(item));
    const code = byName ? byName.code : CODE_PATTERN.test(lower) ? lower : undefined;
    const label = byName ? `"${byName.name}"` : `"${item}"`;
    if (code === undefined) {
      errors.push(`${label} is not an OCR language (see spec 2.16: names like "German" or tesseract codes like "deu").`);
    } else if (code === null) {
      errors.push(`${label} has no tesseract model, so it cannot be read.`);
    } else if (!installed.has(code)) {
      errors.push(BY_CODE.has(code) || byName
        ? `${label} (${code}) is not installed: ${installHint(code, dataDir)}.`
        : `${label} is not a known language and no ${code}.traineddata is installed in ${tessdataDir(dataDir)}.`);
    } else if (!codes.includes(code)) {
      codes.push(code);
    }
  }
  if (errors.length > 0) throw new ValidationError({ [field]: errors });
  return codes;
}

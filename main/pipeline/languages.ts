// The OCR languages of spec 2.16, the tesseract models that read them, and which of those models this
// installation has: eng and deu ship with Folio; the machine's own tesseract models (Debian's
// /usr/share/tesseract-ocr/5/tessdata, TESSDATA_PREFIX, ...) count as they are; any other
// `<code>.traineddata` goes into <dataDir>/tessdata, by hand or through POST /api/v3/ocr-languages/,
// which checks it first (checkTraineddata).
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
  source: ModelSource;
}

/** Bundled with Folio, found in the machine's tesseract folders, or in <dataDir>/tessdata. */
export type ModelSource = 'bundled' | 'system' | 'data';

/** Where tesseract packages put their models: Debian/Ubuntu (5 and 4), Fedora/Arch, a source build, Homebrew, Windows. */
const SYSTEM_TESSDATA_DIRS = [
  '/usr/share/tesseract-ocr/5/tessdata',
  '/usr/share/tesseract-ocr/4.00/tessdata',
  '/usr/share/tessdata',
  '/usr/local/share/tessdata',
  '/opt/homebrew/share/tessdata',
  'C:\\Program Files\\Tesseract-OCR\\tessdata',
];

/**
 * The folders of the machine's own tesseract models, first wins: FOLIO_SYSTEM_TESSDATA when set (folders
 * separated by the path delimiter; empty or "off" for none), else TESSDATA_PREFIX (the folder or its
 * tessdata/) and the places tesseract packages install to. Only folders that exist.
 */
export function systemTessdataDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const setting = env.FOLIO_SYSTEM_TESSDATA;
  let dirs: string[];
  if (setting !== undefined) {
    dirs = setting.trim() === '' || setting.trim().toLowerCase() === 'off' ? [] : setting.split(path.delimiter).map((d) => d.trim()).filter(Boolean);
  } else {
    const prefix = env.TESSDATA_PREFIX?.trim();
    dirs = [...(prefix ? [prefix, path.join(prefix, 'tessdata')] : []), ...SYSTEM_TESSDATA_DIRS];
  }
  return [...new Set(dirs)].filter((d) => {
    try {
      return fs.statSync(d).isDirectory();
    } catch {
      return false;
    }
  });
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

/**
 * Every model this installation can read with, by code. A file in the data folder wins over a bundled
 * one of the same code (that is how a user swaps in, say, tessdata_best's eng), and a bundled one over the
 * machine's (so eng and deu read the same everywhere); the machine's models add every language its
 * tesseract has, without copying (issue 31).
 */
export function installedLanguages(dataDir: string, systemDirs: readonly string[] = systemTessdataDirs()): Map<string, TraineddataFile> {
  const found = new Map<string, TraineddataFile>();
  for (const dir of [...systemDirs].reverse()) for (const t of modelsIn(dir, 'system', false)) found.set(t.code, t);
  for (const t of bundledTraineddata()) found.set(t.code, t);
  for (const t of modelsIn(tessdataDir(dataDir), 'data', true)) found.set(t.code, t);
  return found;
}

/** The `<code>.traineddata` files of a folder (a missing folder has none; an unreadable system one neither). */
function modelsIn(dir: string, source: ModelSource, strict: boolean): TraineddataFile[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if (strict && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const out: TraineddataFile[] = [];
  for (const name of names.sort()) {
    const m = /^(.+)\.traineddata$/.exec(name);
    if (!m || !CODE_PATTERN.test(m[1]) || NOT_LANGUAGES.has(m[1])) continue;
    const file = path.join(dir, name);
    try {
      if (!fs.statSync(file).isFile()) continue;
    } catch {
      continue; // a dangling link
    }
    out.push({ code: m[1], file, gzip: false, source });
  }
  return out;
}

/** One row of the languages endpoint. */
export interface OcrLanguageStatus {
  name: string;
  code: string | null;
  installed: boolean;
  /** Where the model comes from when installed. */
  source: ModelSource | null;
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
  return `install it with "apt-get install tesseract-ocr-${code.replace(/_/g, '-')}" (Folio reads the machine's tesseract models as they are), or an administrator adds ${code}.traineddata (from tessdata, tessdata_fast or tessdata_best) in Settings, which stores it in ${tessdataDir(dataDir)}`;
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

// ---- Adding a model (POST /api/v3/ocr-languages/)

/** A tesseract model is at least this big (the smallest tessdata_fast language is about 400 KB). */
export const MIN_MODEL_BYTES = 64 * 1024;
/** Default most bytes of an added model (FOLIO_MAX_MODEL_MB): tessdata's largest language is about 60 MB. */
const DEFAULT_MAX_MODEL_MB = 100;
/** tesseract's TessdataManager: at most this many entries in the offset table; entry 17 is the LSTM network,
 * 21 its unicharset, 22 its recoder, 23 the version string. */
const MAX_ENTRIES = 1000;
const LSTM = 17;
const LSTM_UNICHARSET = 21;
const LSTM_RECODER = 22;
const VERSION = 23;

export function maxModelBytes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FOLIO_MAX_MODEL_MB;
  const mb = raw === undefined || raw.trim() === '' ? DEFAULT_MAX_MODEL_MB : Number(raw);
  if (!Number.isFinite(mb) || mb <= 0) throw new Error(`FOLIO_MAX_MODEL_MB must be a positive number of megabytes, got "${raw}".`);
  return Math.floor(mb * 1024 * 1024);
}

/**
 * Checks that `bytes` are a tesseract 4+ model Folio can read with, as tesseract's TessdataManager reads
 * the file: a little-endian entry count, a table of 64-bit offsets (-1 for a missing entry) whose first
 * present one ends the table, present offsets rising inside the file, and the LSTM network with its
 * unicharset and recoder (Folio reads with the LSTM engine only). Returns the version string it carries,
 * or throws an Error whose message says what is wrong.
 */
export function checkTraineddata(bytes: Uint8Array): { version: string | null } {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const notModel = 'it is not a tesseract .traineddata file';
  if (b.length < 12) throw new Error(notModel);
  const count = b.readUInt32LE(0);
  if (count < 1 || count > MAX_ENTRIES || b.length < 4 + 8 * count) throw new Error(notModel);
  const tableEnd = 4 + 8 * count;
  const offsets: number[] = [];
  for (let i = 0; i < count; i++) {
    const o = b.readBigInt64LE(4 + 8 * i);
    if (o === -1n) offsets.push(-1);
    else if (o < BigInt(tableEnd) || o > BigInt(b.length)) throw new Error(`${notModel} (its table points outside the file: it may be cut short)`);
    else offsets.push(Number(o));
  }
  const present = offsets.filter((o) => o >= 0);
  if (present.length === 0 || present[0] !== tableEnd || present.some((o, i) => i > 0 && o <= present[i - 1])) throw new Error(notModel);
  if (!(offsets[LSTM] >= 0 && offsets[LSTM_UNICHARSET] >= 0 && offsets[LSTM_RECODER] >= 0)) {
    throw new Error('it has no LSTM network, which Folio reads with (a tesseract 3 model, or orientation data): take the model from tessdata, tessdata_fast or tessdata_best (tesseract 4 or later)');
  }
  let version: string | null = null;
  if (offsets[VERSION] >= 0) {
    const end = offsets.slice(VERSION + 1).find((o) => o >= 0) ?? b.length;
    version = b.toString('latin1', offsets[VERSION], Math.min(end, offsets[VERSION] + 200)).replace(/[^\x20-\x7e]/g, '').trim() || null;
  }
  return { version };
}

/** What an added model is called: `<code>.traineddata` (or the code given beside it). */
export function modelCode(fileName: string, given?: string): string {
  const code = (given?.trim() || /^(.*?)\.traineddata$/i.exec(path.posix.basename(fileName.trim().replace(/\\/g, '/')))?.[1] || '').toLowerCase();
  if (!CODE_PATTERN.test(code)) {
    throw new Error(`"${given?.trim() || fileName}" is not a model name: name the file <code>.traineddata after its tesseract language code, such as fra.traineddata or chi_sim.traineddata`);
  }
  if (NOT_LANGUAGES.has(code)) throw new Error(`${code} is not a reading language (orientation detection or equations); Folio brings its own orientation model`);
  return code;
}

/**
 * Stores a checked model as <dataDir>/tessdata/<code>.traineddata (written aside, then renamed, private to
 * the data folder's user), where installedLanguages finds it at once. Returns whether it replaced one.
 */
export async function storeTraineddata(dataDir: string, code: string, bytes: Uint8Array): Promise<{ file: string; replaced: boolean }> {
  const dir = tessdataDir(dataDir);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${code}.traineddata`);
  const replaced = fs.existsSync(file);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await fs.promises.writeFile(tmp, bytes, { mode: 0o600 });
    await fs.promises.rename(tmp, file);
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
  return { file, replaced };
}

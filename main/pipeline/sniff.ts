// Recognises an upload by its bytes, never by its name: PDF, JPEG, PNG, TIFF, and the office formats
// LibreOffice converts (OOXML and OpenDocument ZIP packages, OLE2 compound files, RTF).
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { BrokenFileError, EmptyFileError, EncryptedOfficeError, UnsupportedFileError } from './errors.ts';

export type FileKind = 'pdf' | 'jpeg' | 'png' | 'tiff' | 'office';
export type OfficeFormat = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'doc' | 'xls' | 'ppt' | 'pub' | 'rtf';
export type FileFormat = 'pdf' | 'jpeg' | 'png' | 'tiff' | OfficeFormat;

export interface SniffResult {
  kind: FileKind;
  /** Also the file extension LibreOffice is given for office formats. */
  format: FileFormat;
  mime: string;
}

const MIME: Record<FileFormat, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  pub: 'application/x-mspublisher',
  rtf: 'application/rtf',
};

const detected = (kind: FileKind, format: FileFormat): SniffResult => ({ kind, format, mime: MIME[format] });

/** Readers (Acrobat, pdf.js) accept a PDF whose header follows up to 1 KB of junk (mail gateways, HTTP headers). */
const PDF_HEADER_WINDOW = 1024;

const startsWith = (b: Buffer, magic: number[] | string, at = 0) => {
  const m = typeof magic === 'string' ? Buffer.from(magic, 'latin1') : Buffer.from(magic);
  return b.length >= at + m.length && b.subarray(at, at + m.length).equals(m);
};

/** What the whole file is. Throws EmptyFileError, UnsupportedFileError or (for protected OOXML) EncryptedOfficeError. */
export function sniff(bytes: Uint8Array): SniffResult {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length === 0) throw new EmptyFileError();
  const image = imageKind(b);
  if (image) return detected(image, image);
  if (startsWith(b, 'PK\x03\x04')) return detected('office', zipFormat(b));
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return detected('office', compoundFileFormat(b));
  if (startsWith(b, '{\\rtf')) return detected('office', 'rtf');
  if (pdfHeaderOffset(b) >= 0) return detected('pdf', 'pdf');
  throw new UnsupportedFileError(describeUnknown(b));
}

/** The image format a file's first bytes announce (its first 8 are enough), or null for any other file. */
export function imageKind(head: Uint8Array): 'jpeg' | 'png' | 'tiff' | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // Classic and BigTIFF, either byte order.
  if (['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].some((m) => startsWith(b, m))) return 'tiff';
  return null;
}

/** Byte offset of the `%PDF-` header (0 for a clean file), or -1 when the first 1 KB has none. */
export function pdfHeaderOffset(bytes: Uint8Array): number {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PDF_HEADER_WINDOW + 8)).toString('latin1');
  const header = /%PDF-\d/.exec(head);
  return header && header.index < PDF_HEADER_WINDOW ? header.index : -1;
}

function describeUnknown(b: Buffer): string {
  if (startsWith(b, 'MZ')) return 'it is a Windows program';
  if (startsWith(b, '\x7fELF')) return 'it is a Linux program';
  if ([[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe]].some((m) => startsWith(b, m))) {
    return 'it is a macOS program';
  }
  if (startsWith(b, '#!')) return 'it is a script';
  if (startsWith(b, 'GIF8')) return 'it is a GIF image';
  if (startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8)) return 'it is a WebP image';
  if (startsWith(b, '%!PS')) return 'it is PostScript';
  return 'its content was not recognised';
}

// ---- ZIP packages: OOXML ([Content_Types].xml + word/, xl/, ppt/) and OpenDocument (mimetype entry)

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

const ODF_FORMATS: Record<string, OfficeFormat> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.text-master': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
};

function zipFormat(b: Buffer): OfficeFormat {
  const entries = zipEntries(b);
  if (entries.length === 0) throw new UnsupportedFileError('it is a damaged ZIP archive whose contents cannot be listed');
  const mimetype = entries.find((e) => e.name === 'mimetype');
  if (mimetype) {
    const type = readZipEntry(b, mimetype)?.toString('ascii').trim() ?? '';
    const format = ODF_FORMATS[type];
    if (format) return format;
    if (type.startsWith('application/vnd.oasis.opendocument.')) throw new UnsupportedFileError(`it is an OpenDocument file of type ${type}`);
  }
  const names = entries.map((e) => e.name.toLowerCase());
  if (names.includes('[content_types].xml')) {
    // The main part's folder names the application; part names are case-insensitive in OPC.
    if (names.some((n) => n.startsWith('word/'))) return 'docx';
    if (names.some((n) => n.startsWith('xl/'))) return 'xlsx';
    if (names.some((n) => n.startsWith('ppt/'))) return 'pptx';
    // Cut short before its main part: an Office document, damaged (the central directory is gone too).
    if (!centralDirectory(b)) throw new BrokenFileError('The Office document is damaged or incomplete (it was cut short) and cannot be read. Upload the original file again, or a PDF export of it.');
    throw new UnsupportedFileError('it is an Office Open XML package that is not a Word, Excel or PowerPoint document');
  }
  throw new UnsupportedFileError('it is a ZIP archive, not an Office document');
}

/** Entries from the central directory; from the local headers when that is missing (a truncated file). */
function zipEntries(b: Buffer): ZipEntry[] {
  return centralDirectory(b) ?? localHeaders(b);
}

function centralDirectory(b: Buffer): ZipEntry[] | null {
  let eocd = -1;
  // The end record is last, followed by a comment of at most 64 KiB.
  for (let at = b.length - 22; at >= Math.max(0, b.length - 22 - 0xffff); at--) {
    if (b.readUInt32LE(at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > b.length || b.readUInt32LE(at) !== 0x02014b50) return null;
    const nameLength = b.readUInt16LE(at + 28);
    entries.push({
      name: b.toString('utf8', at + 46, Math.min(b.length, at + 46 + nameLength)),
      method: b.readUInt16LE(at + 10),
      compressedSize: b.readUInt32LE(at + 20),
      localOffset: b.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
  }
  return entries;
}

function localHeaders(b: Buffer): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = 0;
  while (at + 30 <= b.length && b.readUInt32LE(at) === 0x04034b50 && entries.length < 10_000) {
    const flags = b.readUInt16LE(at + 6);
    const compressedSize = b.readUInt32LE(at + 18);
    const nameLength = b.readUInt16LE(at + 26);
    entries.push({ name: b.toString('utf8', at + 30, Math.min(b.length, at + 30 + nameLength)), method: b.readUInt16LE(at + 8), compressedSize, localOffset: at });
    // With a data descriptor (flag bit 3) the size follows the data: the next header cannot be found.
    if (flags & 0x08 && compressedSize === 0) break;
    at += 30 + nameLength + b.readUInt16LE(at + 28) + compressedSize;
  }
  return entries;
}

/** A small entry's bytes (null when damaged); output is capped, so a crafted entry cannot inflate a bomb. */
function readZipEntry(b: Buffer, entry: ZipEntry): Buffer | null {
  const at = entry.localOffset;
  if (at + 30 > b.length || b.readUInt32LE(at) !== 0x04034b50) return null;
  const start = at + 30 + b.readUInt16LE(at + 26) + b.readUInt16LE(at + 28);
  const data = b.subarray(start, Math.min(b.length, start + entry.compressedSize, start + 4096));
  try {
    if (entry.method === 0) return data;
    if (entry.method === 8) return inflateRawSync(data, { maxOutputLength: 4096, finishFlush: zlibConstants.Z_SYNC_FLUSH /* tolerate a cut stream */ });
  } catch {
    /* damaged entry */
  }
  return null;
}

// ---- OLE2 compound files (.doc, .xls, .ppt, .pub, and password-protected OOXML)

const MAX_REGULAR_SECTOR = 0xfffffffa;

function compoundFileFormat(b: Buffer): OfficeFormat {
  const names = new Set(compoundFileNames(b).map((n) => n.toLowerCase()));
  // Office keeps a password-protected .docx/.xlsx/.pptx as an encrypted package inside a compound file.
  if (names.has('encryptedpackage') && names.has('encryptioninfo')) throw new EncryptedOfficeError();
  if (names.has('worddocument')) return 'doc';
  if (names.has('workbook') || names.has('book')) return 'xls';
  if (names.has('powerpoint document')) return 'ppt';
  if (names.has('quill')) return 'pub';
  throw new UnsupportedFileError('it is a Microsoft compound file that is not a Word, Excel, PowerPoint or Publisher document (an installer or an Outlook message, for example)');
}

/**
 * Names of the directory entries: the directory is a sector chain followed through the FAT, whose
 * sectors are listed in the header (first 109) and the DIFAT chain. Stops quietly at truncation or loops.
 */
function compoundFileNames(b: Buffer): string[] {
  if (b.length < 512) return [];
  const shift = b.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return [];
  const sectorSize = 1 << shift;
  const perSector = sectorSize / 4;
  const totalSectors = Math.floor(b.length / sectorSize);
  const sectorOffset = (s: number) => (s + 1) * sectorSize;
  const inFile = (s: number) => s < MAX_REGULAR_SECTOR && sectorOffset(s) + sectorSize <= b.length;

  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(b.readUInt32LE(0x4c + 4 * i));
  const seen = new Set<number>();
  for (let s = b.readUInt32LE(0x44); inFile(s) && !seen.has(s); s = b.readUInt32LE(sectorOffset(s) + sectorSize - 4)) {
    seen.add(s);
    for (let i = 0; i < perSector - 1; i++) fatSectors.push(b.readUInt32LE(sectorOffset(s) + 4 * i));
  }
  const next = (s: number): number => {
    const fatSector = fatSectors[Math.floor(s / perSector)];
    if (fatSector === undefined || !inFile(fatSector)) return MAX_REGULAR_SECTOR;
    return b.readUInt32LE(sectorOffset(fatSector) + 4 * (s % perSector));
  };

  const names: string[] = [];
  const visited = new Set<number>();
  for (let s = b.readUInt32LE(0x30); inFile(s) && !visited.has(s) && visited.size <= totalSectors; s = next(s)) {
    visited.add(s);
    for (let at = sectorOffset(s); at < sectorOffset(s) + sectorSize; at += 128) {
      const nameLength = b.readUInt16LE(at + 0x40);
      const type = b[at + 0x42];
      // 1 storage, 2 stream, 5 root; the length counts the UTF-16 terminator.
      if ((type === 1 || type === 2 || type === 5) && nameLength >= 2 && nameLength <= 64) {
        names.push(b.toString('utf16le', at, at + nameLength - 2));
      }
    }
  }
  return names;
}

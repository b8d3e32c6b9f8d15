// A minimal ZIP writer (PKWARE APPNOTE 6.3): local headers, data, central directory, end record. Enough
// for the XLSX export (xlsx.ts) without a dependency: no ZIP64, no encryption, no streaming. An entry is
// deflated when that makes it smaller, else stored. Names are flagged UTF-8 (general purpose bit 11). Pure.
import zlib from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, forward slashes, no leading slash. */
  name: string;
  data: Buffer | string;
}

export interface ZipOptions {
  /** Modification time written for every entry (local time, as ZIP stores it); default now. */
  modified?: Date;
  /** false: store every entry uncompressed. Default true. */
  deflate?: boolean;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION = 20; // 2.0: deflate, folders
const UTF8_NAMES = 0x0800;
const STORED = 0;
const DEFLATED = 8;
/** Past these a ZIP needs the ZIP64 records this writer does not write. */
const MAX_SIZE = 0xffffffff;
const MAX_ENTRIES = 0xffff;

/** MS-DOS date and time (2-second resolution, years 1980-2107), as ZIP headers hold them. */
export function dosDateTime(d: Date): { date: number; time: number } {
  const year = Math.min(Math.max(d.getFullYear(), 1980), 2107);
  return {
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
  };
}

export function writeZip(entries: readonly ZipEntry[], options: ZipOptions = {}): Buffer {
  if (entries.length > MAX_ENTRIES) throw new Error(`A ZIP without ZIP64 holds at most ${MAX_ENTRIES} entries.`);
  const { date, time } = dosDateTime(options.modified ?? new Date());
  const seen = new Set<string>();
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (!entry.name || entry.name.startsWith('/') || entry.name.includes('\\')) throw new Error(`Invalid ZIP entry name "${entry.name}".`);
    if (seen.has(entry.name)) throw new Error(`Duplicate ZIP entry "${entry.name}".`);
    seen.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const crc = zlib.crc32(data);
    const deflated = options.deflate === false ? null : zlib.deflateRawSync(data);
    const useDeflate = deflated !== null && deflated.length < data.length;
    const body = useDeflate ? deflated : data;
    if (data.length > MAX_SIZE || offset + 30 + name.length + body.length > MAX_SIZE) throw new Error('The ZIP would need ZIP64 (over 4 GiB).');

    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(useDeflate ? DEFLATED : STORED, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // extra field length
    parts.push(local, name, body);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4); // made by: MS-DOS attributes, version 2.0
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(useDeflate ? DEFLATED : STORED, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal and external attributes: all 0
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  // disk numbers: 0
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  // comment length: 0
  return Buffer.concat([...parts, directory, end]);
}

/** A ZIP that cannot be read: not a ZIP, cut short, or using what this reader does not read. */
export class ZipReadError extends Error {}

export interface ZipReadEntry {
  name: string;
  /** Uncompressed size as the central directory says. */
  size: number;
  read(): Buffer;
}

/**
 * The entries of a ZIP (the project-folder import, bbox.zip): the central directory, stored and deflated
 * entries, no ZIP64, no encryption. `maxEntrySize` bounds what one entry may inflate to (a ZIP bomb is
 * refused before it is inflated). Folders (names ending in /) are left out.
 */
export function readZip(zip: Buffer, options: { maxEntrySize?: number } = {}): ZipReadEntry[] {
  const max = options.maxEntrySize ?? MAX_SIZE;
  const eocd = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipReadEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new ZipReadError('The ZIP is damaged: its central directory is broken.');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (flags & 1) throw new ZipReadError(`The ZIP entry ${name} is encrypted.`);
    if (method !== STORED && method !== DEFLATED) throw new ZipReadError(`The ZIP entry ${name} uses compression method ${method}; only stored and deflated entries are read.`);
    if (size > max) throw new ZipReadError(`The ZIP entry ${name} is ${size} bytes, more than ${max}.`);
    entries.push({
      name,
      size,
      read: () => {
        if (localHeader + 30 > zip.length || zip.readUInt32LE(localHeader) !== LOCAL_HEADER) throw new ZipReadError(`The ZIP is damaged at ${name}.`);
        const start = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
        const body = zip.subarray(start, start + compressedSize);
        let out: Buffer;
        try {
          out = method === STORED ? Buffer.from(body) : zlib.inflateRawSync(body, { maxOutputLength: Math.max(size, 1) });
        } catch (err) {
          throw new ZipReadError(`The ZIP entry ${name} could not be inflated: ${(err as Error).message}`);
        }
        if (out.length !== size || zlib.crc32(out) !== crc) {
          throw new ZipReadError(`The ZIP entry ${name} is damaged (its size or checksum does not match).`);
        }
        return out;
      },
    });
  }
  return entries;
}

function endOfCentralDirectory(zip: Buffer): number {
  // The record sits at the end, followed by a comment of at most 64 KiB.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new ZipReadError('This is not a ZIP file (no end of central directory).');
}

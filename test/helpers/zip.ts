// Reads a ZIP back for the tests of the XLSX export: from the end record through the central directory
// to each local header, inflating deflated entries and checking every CRC-32 and size on the way.
// Independent of main/domain/zip.ts except for Node's zlib. Also: a Python check of the archive and its
// XML (zipfile.testzip, xml.dom.minidom), and a reader of an XLSX's sheets as string grids.
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';

export interface ReadEntry {
  name: string;
  method: number;
  flags: number;
  data: Buffer;
}

export function readZip(buf: Buffer): ReadEntry[] {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > buf.length) throw new Error('no end of central directory record');
  const count = buf.readUInt16LE(end + 10);
  const size = buf.readUInt32LE(end + 12);
  let p = buf.readUInt32LE(end + 16);
  if (p + size !== end) throw new Error('central directory does not end at the end record');
  const out: ReadEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central header ${i}`);
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const usize = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header of ${name}`);
    if (buf.readUInt32LE(local + 14) !== crc || buf.readUInt32LE(local + 18) !== csize) throw new Error(`local header of ${name} disagrees`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + csize);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? zlib.inflateRawSync(raw) : null;
    if (!data) throw new Error(`unknown method ${method} of ${name}`);
    if (data.length !== usize || zlib.crc32(data) !== crc) throw new Error(`size or CRC of ${name} wrong`);
    out.push({ name, method, flags, data });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

export function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import zipfile, xml.dom.minidom'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Python's zipfile opens the archive, every CRC checks out, and every .xml/.rels entry parses as XML. Returns the names. */
export function pythonCheck(buf: Buffer): string[] {
  const script = [
    'import sys, io, json, zipfile, xml.dom.minidom',
    'z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))',
    'bad = z.testzip()',
    'assert bad is None, bad',
    'for n in z.namelist():',
    '    if n.endswith(".xml") or n.endswith(".rels"): xml.dom.minidom.parseString(z.read(n))',
    'print(json.dumps(z.namelist()))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script], { input: buf }).toString());
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/_x([0-9A-F]{4})_/g, (_, h) => String.fromCharCode(parseInt(h, 16)));

/** A cell as read from sheet XML: a number cell as a number, an inline string as its text. */
export type ReadCell = string | number;

/** The sheets of an XLSX written by main/domain/xlsx.ts, by name, as grids (missing cells are undefined). */
export function readXlsx(buf: Buffer): Map<string, ReadCell[][]> {
  const files = new Map(readZip(buf).map((e) => [e.name, e.data.toString('utf8')]));
  const names = [...files.get('xl/workbook.xml')!.matchAll(/<sheet name="([^"]*)" sheetId="(\d+)"/g)].map((m) => [unescapeXml(m[1]), m[2]] as const);
  const out = new Map<string, ReadCell[][]>();
  for (const [name, n] of names) {
    const xml = files.get(`xl/worksheets/sheet${n}.xml`)!;
    const grid: ReadCell[][] = [];
    for (const row of xml.matchAll(/<row r="(\d+)">([\s\S]*?)<\/row>/g)) {
      const cells: ReadCell[] = [];
      for (const c of row[2].matchAll(/<c r="([A-Z]+)\d+"[^>]*?(?: t="inlineStr")?>([\s\S]*?)<\/c>/g)) {
        const col = [...c[1]].reduce((a, ch) => a * 26 + ch.charCodeAt(0) - 64, 0) - 1;
        const v = /<v>([^<]*)<\/v>/.exec(c[2]);
        const t = /<t xml:space="preserve">([\s\S]*?)<\/t>/.exec(c[2]);
        cells[col] = v ? Number(v[1]) : unescapeXml(t![1]);
      }
      grid[Number(row[1]) - 1] = cells;
    }
    out.set(name, grid);
  }
  return out;
}

// File types are recognised by their bytes: every supported type, the office containers told apart by
// what is inside them, and the refusals (empty, executables, other formats, truncated files).
import { beforeAll, describe, expect, it } from 'vitest';
import { EmptyFileError, EncryptedOfficeError, FileRejectedError, SUPPORTED_TYPES, UnsupportedFileError } from '../../main/pipeline/errors.ts';
import { sniff } from '../../main/pipeline/sniff.ts';
import { orientedJpeg } from '../fixtures/imageSamples.ts';
import { makeDocx, makeOdfSkeleton, writeZip } from '../fixtures/ooxml.ts';
import { writeCompoundFile } from '../fixtures/ole2.ts';
import { textPdf } from '../fixtures/pdfSamples.ts';
import { supportedSamples, type SupportedSample } from '../fixtures/uploadSamples.ts';

function refusal(bytes: Uint8Array): FileRejectedError {
  try {
    sniff(bytes);
  } catch (err) {
    if (err instanceof FileRejectedError) return err;
    throw err;
  }
  throw new Error('sniff accepted the file');
}

let samples: SupportedSample[];
beforeAll(async () => {
  samples = await supportedSamples();
});

describe('sniff: supported types', () => {
  it('recognises a generated example of every supported type, whatever it is called', () => {
    expect(samples.length).toBeGreaterThan(15);
    for (const s of samples) {
      const got = sniff(s.bytes);
      expect({ name: s.name, kind: got.kind, format: got.format }).toEqual({ name: s.name, kind: s.kind, format: s.format });
      expect(got.mime, s.name).toMatch(/^application\/|^image\//);
    }
    expect(sniff(samples[0].bytes).mime).toBe('application/pdf');
    expect(sniff(samples.find((s) => s.format === 'docx')!.bytes).mime).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('takes a PDF whose header follows junk within the first KB, not beyond it', async () => {
    const pdf = await textPdf([['x']]);
    expect(sniff(Buffer.concat([Buffer.alloc(1000, 0x20), pdf])).kind).toBe('pdf');
    expect(refusal(Buffer.concat([Buffer.alloc(1100, 0x20), pdf]))).toBeInstanceOf(UnsupportedFileError);
  });

  it('reads the package, not the first entry: an ODF mimetype anywhere, OOXML with [Content_Types].xml last', () => {
    const odt = makeOdfSkeleton('application/vnd.oasis.opendocument.text');
    expect(sniff(odt).format).toBe('odt');
    // The pptx sample writes [Content_Types].xml after its parts; a deflated mimetype entry is tolerated.
    const loose = writeZip([{ name: 'content.xml', data: '<x/>' }, { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet' }]);
    expect(sniff(loose).format).toBe('ods');
  });

  it('recognises a DOCX cut short (no central directory) from its local headers', () => {
    const docx = makeDocx(['A paragraph long enough to matter.']);
    const cut = docx.subarray(0, docx.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) - 5);
    expect(sniff(cut).format).toBe('docx');
  });

  it('a sniffed buffer may be a view into a larger one', async () => {
    const jpeg = await orientedJpeg(1);
    const big = Buffer.concat([Buffer.from('garbage-before'), jpeg, Buffer.from('after')]);
    expect(sniff(new Uint8Array(big.buffer, big.byteOffset + 14, jpeg.length)).format).toBe('jpeg');
  });
});

describe('sniff: refusals', () => {
  it('refuses a zero-byte file with its own 400', () => {
    const err = refusal(new Uint8Array(0));
    expect(err).toBeInstanceOf(EmptyFileError);
    expect(err.status).toBe(400);
    expect(err.body).toEqual({ data_file: ['The file is empty.'] });
  });

  const renamed: Array<[string, Buffer, string]> = [
    ['a Windows program renamed .pdf', Buffer.concat([Buffer.from('MZ\x90\0\x03\0\0\0', 'latin1'), Buffer.alloc(200)]), 'Windows program'],
    ['a Linux program renamed .pdf', Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01\0', 'latin1'), Buffer.alloc(200)]), 'Linux program'],
    ['a macOS program', Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]), 'macOS program'],
    ['a shell script renamed .docx', Buffer.from('#!/bin/sh\nrm -rf ~\n'), 'script'],
    ['a GIF', Buffer.from('GIF89a\x01\0\x01\0\0\0\0;', 'latin1'), 'GIF image'],
    ['plain text', Buffer.from('Dear customer, your invoice is attached.'), 'not recognised'],
    ['a plain ZIP archive', writeZip([{ name: 'readme.txt', data: 'hi' }, { name: 'setup.exe', data: 'MZ' }]), 'ZIP archive, not an Office document'],
    ['an OpenDocument drawing', makeOdfSkeleton('application/vnd.oasis.opendocument.graphics'), 'opendocument.graphics'],
    ['an OOXML package of another kind (Visio)', writeZip([{ name: '[Content_Types].xml', data: '<Types/>' }, { name: 'visio/document.xml', data: '<x/>' }]), 'not a Word, Excel or PowerPoint'],
    ['an MSI installer (compound file)', writeCompoundFile([{ name: '\u0005SummaryInformation' }, { name: 'Installer' }]), 'compound file'],
    // Truncated files: too short to carry their own signature, or a container without contents.
    ['the first 3 bytes of a PNG', Buffer.from([0x89, 0x50, 0x4e]), 'not recognised'],
    ['the first 2 bytes of a JPEG', Buffer.from([0xff, 0xd8]), 'not recognised'],
    ['"%PD"', Buffer.from('%PD'), 'not recognised'],
    ['a compound-file signature alone', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'compound file'],
    ['a ZIP cut after 10 bytes', makeDocx(['x']).subarray(0, 10), 'damaged ZIP'],
  ];
  it.each(renamed)('refuses %s with 415 and the supported list', (_what, bytes, reason) => {
    const err = refusal(bytes);
    expect(err).toBeInstanceOf(UnsupportedFileError);
    expect(err.status).toBe(415);
    expect(err.message).toContain(reason);
    expect(err.body.data_file[0]).toMatch(/^The file type is not supported \(.+\)\. Supported: PDF, JPEG, PNG, TIFF, Word \(\.doc, \.docx\), Excel \(\.xls, \.xlsx\), PowerPoint \(\.ppt, \.pptx\), Publisher, OpenDocument \(\.odt, \.ods, \.odp\)\.$/);
    expect(err.body.data_file[0].endsWith(SUPPORTED_TYPES)).toBe(true);
  });

  it('tells a password-protected Word/Excel file (an encrypted OOXML package) apart from an unsupported one', () => {
    const err = refusal(writeCompoundFile([{ name: 'EncryptionInfo' }, { name: 'EncryptedPackage' }, { name: '\u0006DataSpaces', children: [{ name: 'Version' }] }]));
    expect(err).toBeInstanceOf(EncryptedOfficeError);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/protected with a password/);
  });

  it('a truncated image still has its type: the image step, not sniffing, refuses it', async () => {
    const jpeg = await orientedJpeg(1);
    expect(sniff(jpeg.subarray(0, jpeg.length >> 1)).format).toBe('jpeg');
  });
});

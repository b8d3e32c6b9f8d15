// Opens PDFs with pdf.js the way Folio runs it in Node: fonts, CMaps, ICC profiles and wasm decoders come
// from pdfjs-dist's own folders (nothing is fetched), no eval, no system fonts, errors only.
import { restoreNativeJson } from './nativeJson.ts';
import { pipelineLimits } from './limits.ts';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { DocumentInitParameters, PDFDocumentLoadingTask } from 'pdfjs-dist/types/src/display/api';

/** A folder shipped inside pdfjs-dist, with the trailing separator pdf.js needs to join file names. */
export function pdfjsAssetDir(name: string): string {
  const pkg = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
  return path.join(path.dirname(pkg), name) + path.sep;
}

/** Starts loading `data`; pdf.js detaches the array it is given, so callers pass a copy they can spare. */
// Loading pdf.js replaced the engine's JSON functions (see nativeJson.ts).
restoreNativeJson();

export function openPdfjsDocument(data: Uint8Array, extra: DocumentInitParameters = {}): PDFDocumentLoadingTask {
  const task = getDocument({
    data,
    standardFontDataUrl: pdfjsAssetDir('standard_fonts'),
    cMapUrl: pdfjsAssetDir('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfjsAssetDir('wasm'),
    iccUrl: pdfjsAssetDir('iccs'),
    isEvalSupported: false,
    // No FontFace in Node: glyphs are drawn as paths from the parsed font programs.
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: VerbosityLevel.ERRORS,
    // A backstop for what pdfImageSizes.ts cannot read (a file pdf-lib does not parse): pdf.js leaves out an
    // image declaring more pixels than the limit instead of allocating them.
    maxImageSize: pipelineLimits().maxImagePixels,
    ...extra,
  });
  // The in-thread worker loads with the first document and patches JSON again.
  void task.promise.then(restoreNativeJson, restoreNativeJson);
  return task;
}

// Worker entry point: worker threads start without the parent's TypeScript loader, so register tsx here
// before loading the TypeScript worker (the way bin/folio.mjs starts the app). The big dependencies are
// loaded first, straight from node: through tsx's loader pdf.js alone takes ~2 s and ~170 MB more per
// worker. pdf.worker.mjs sets globalThis.pdfjsWorker, which pdf.js then uses instead of importing it.
import 'pdfjs-dist/legacy/build/pdf.mjs';
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import 'sharp';
import '@napi-rs/canvas';
import { register } from 'tsx/esm/api';

register();
await import('./renderWorker.ts');

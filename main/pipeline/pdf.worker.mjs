// Worker entry point when Folio runs from its sources (compiled, the pool starts dist/main/pdfWorker.js:
// paths.ts workerEntry). Worker threads start without the parent's TypeScript loader, so register tsx here
// before loading the TypeScript worker (the way bin/folio.mjs starts the app). nativeJson.ts comes first,
// as in core.ts: pdf.js's legacy build replaces JSON.stringify/parse with slow polyfills as it loads. The
// big dependencies are then loaded straight from node, with tsx's loader switched off: through it pdf.js
// alone takes ~2 s and ~170 MB more per worker. pdf.js's own pdf.worker.mjs sets globalThis.pdfjsWorker, which pdf.js
// then uses instead of importing it.
import { register } from 'tsx/esm/api';

const unregister = register();
await import('./nativeJson.ts');
await unregister();
await import('pdfjs-dist/legacy/build/pdf.mjs');
await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
await Promise.all([import('sharp'), import('@napi-rs/canvas'), import('pdf-lib')]);
register();
await import('./pdf.worker.ts');

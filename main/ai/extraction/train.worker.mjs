// Worker entry point when Folio runs from its sources (compiled: dist/main/trainWorker.js, paths.ts
// workerEntry). Worker threads start without the parent's TypeScript loader, so register tsx here
// before loading the TypeScript worker (the way main/pipeline/pdf.worker.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./train.worker.ts');

// Worker entry point: worker threads start without the parent's TypeScript loader, so register tsx here
// before loading the TypeScript worker (the way main/pipeline/pdfWorker.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./trainWorker.ts');

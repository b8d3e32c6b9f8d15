// Worker entry point when Folio runs from its sources (compiled: dist/main/paddleWorker.js, paths.ts
// workerEntry). Worker threads start without the parent's TypeScript loader, so register tsx here
// before loading the TypeScript worker (as main/ai/extraction/train.worker.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./paddle.worker.ts');

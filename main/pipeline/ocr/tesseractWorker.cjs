// Worker-thread entry of every OCR worker: tesseract.js's own Node worker script, with two guards.
// Offline: fetch is replaced, so a model path that is not local fails at once instead of downloading.
// No hangs: tesseract.js's createWorker never settles when loading a model fails, so the thread reports
// the failure and ends itself; the pool sees the report and the thread is not left behind.
'use strict';
const { parentPort } = require('node:worker_threads');

// Background priority for this thread only (Linux keeps nice per thread), as backgroundPriority.ts
// does for the other workers (this file is plain CommonJS, loaded by tesseract.js): the API's thread first.
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(10);
  } catch {
    // not permitted: normal priority
  }
}

globalThis.fetch = async (url) => {
  throw new Error(`Folio's OCR works offline and never downloads (asked for ${String(url)})`);
};

const post = parentPort.postMessage.bind(parentPort);
const SETUP_ACTIONS = new Set(['load', 'loadLanguage', 'initialize']);
let ending = false;

function end(code) {
  ending = true;
  setImmediate(() => process.exit(code));
}

parentPort.postMessage = (message, transfer) => {
  // After a failed set-up tesseract.js still posts progress and "resolve" for the same job, which the
  // main thread no longer expects (it would throw there): nothing more is sent once the thread is ending.
  if (ending) return;
  post(message, transfer);
  if (message && message.status === 'reject' && SETUP_ACTIONS.has(message.action)) end(1);
};

process.on('uncaughtException', (err) => {
  process.stderr.write(`OCR worker failed: ${err && err.stack ? err.stack : String(err)}\n`);
  end(1);
});
process.on('unhandledRejection', (err) => {
  process.stderr.write(`OCR worker failed: ${err && err.stack ? err.stack : String(err)}\n`);
  end(1);
});

require('tesseract.js/src/worker-script/node/index.js');

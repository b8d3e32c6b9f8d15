// pdfjs-dist's legacy build carries core-js polyfills that replace JSON.stringify and JSON.parse for
// the whole process when pdf.js (or its in-thread "fake" worker) loads; the replacements are about
// ten times slower (measured: 24.5 ms against 2.1 ms for a 20,000-object array), which slowed every
// API answer. This module is imported before pdf.js anywhere it is loaded, keeps the engine's own
// functions, and puts them back after pdf.js has loaded. Node's built-ins do everything pdf.js needs.
const nativeStringify = JSON.stringify;
const nativeParse = JSON.parse;

export function restoreNativeJson(): void {
  if (JSON.stringify !== nativeStringify) JSON.stringify = nativeStringify;
  if (JSON.parse !== nativeParse) JSON.parse = nativeParse;
}

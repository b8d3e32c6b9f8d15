// Folio's import rules, checked by scripts/check-imports.mjs (`npm run lint:deps`, part of `npm test`). They
// keep the layers the README's architecture section describes from growing back into each other (issue 13,
// "Seams"). There are no exceptions: a file that needs one is in the wrong place, or the rule is.
//
// An import's target is a path from the repository root (`main/services/x.ts`), `node:<built-in>` or
// `npm:<package>`. Type-only imports count unless a rule says `valuesOnly`: a type from a layer above
// ties a file to that layer as surely as a value does.

/** The folders whose files are checked: the application's sources (tests and scripts may import anything). */
export const ROOTS = ['main', 'shared', 'renderer/src'];

/** @type {import('./check-imports.mjs').Rule[]} */
export const RULES = [
  {
    name: 'no-cycles',
    why: 'files that import each other (directly or round a loop) can only be understood, tested and moved together',
    cycles: true,
  },
  {
    name: 'domain-imports-nothing-above',
    why: "main/domain is the rules themselves (statuses, geometry, normalization): it may use node's built-ins and shared/, and nothing that stores, serves, reads PDFs or runs models",
    from: /^main\/domain\//,
    toNot: /^(main\/domain\/|shared\/|node:)/,
  },
  {
    name: 'services-know-no-driver-or-transport',
    why: 'services hold the rules over the store and the queue; SQL and its driver stay in main/store (the team server swaps the store), HTTP in main/http, the desktop window in main/electron',
    from: /^main\/services\//,
    to: /^npm:(kysely|express|electron|better-sqlite3)$/,
  },
  {
    name: 'shared-imports-neither-side',
    why: 'shared/ (schemas, the desktop bridge) is read by the main process and the renderer alike, so it can depend on neither',
    from: /^shared\//,
    to: /^(main|renderer)\//,
  },
  {
    name: 'renderer-state-imports-no-views',
    why: "the zustand stores in renderer/src/state hold what the screens show; the screens (views, the shell, the viewer's components) import them, never the other way round. Of the viewer, a store may take types.ts: the shape of what the viewer is given (boxes on pages), which the stores compute",
    from: /^renderer\/src\/state\//,
    to: /^renderer\/src\/(views|shell)\/|^renderer\/src\/viewer\/(?!types\.ts$)/,
  },
  {
    name: 'worker-entries-named-worker',
    why: 'a file that takes parentPort/workerData is a worker thread\'s entry: named *.worker.ts, it is found at a glance and listed in main/paths.ts WORKER_ENTRIES (one bundle each in dist/main)',
    from: /\.tsx?$/,
    fromNot: /\.worker\.ts$/,
    to: /^node:worker_threads$/,
    names: ['parentPort', 'workerData'],
  },
  {
    name: 'worker-entries-not-imported',
    why: 'a worker entry runs as its own thread (new Worker(workerEntry(...))); the main thread imports only its types, and only its source-mode shim (*.worker.mjs) loads it',
    fromNot: /\.worker\.mjs$/,
    to: /\.worker\.ts$/,
    valuesOnly: true,
  },
];

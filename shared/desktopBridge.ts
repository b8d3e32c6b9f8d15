// The desktop window's bridge, `window.folio`: the one object the preload (main/electron/preload.cjs)
// exposes to the renderer. The renderer's IPC transport calls it; main/electron/ipc.ts answers.
// The renderer imports these as types only.

export type BridgeMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface BridgeRequest {
  method: BridgeMethod;
  /** An API path without the query string, e.g. `/api/v3/projects/5/`. */
  path: string;
  query: Record<string, string>;
  /** A JSON value; absent for requests without a body. */
  body?: unknown;
  /** The API token of the window's session (null before login). */
  token: string | null;
}

export interface BridgeUpload {
  path: string;
  /** The form fields beside the file, as a multipart form would carry them. */
  fields: Record<string, string>;
  /** The part that carries the file (`data_file` for documents, `file` for model files). */
  fileField: string;
  fileName: string;
  data: ArrayBuffer;
  token: string | null;
}

/**
 * An answer: the HTTP status and the JSON text of the body (empty for 204). Text, not an object: the main
 * process serializes once and the renderer parses once, exactly as over HTTP.
 */
export interface BridgeAnswer {
  status: number;
  body: string;
}

/** A file the main process read for the renderer to upload (menu "Import documents", a second launch). */
export interface ImportedFile {
  name: string;
  data: ArrayBuffer;
}

/** What the app menu asks of the renderer. */
export type MenuCommand = { kind: 'import-documents'; files: ImportedFile[] } | { kind: 'show-shortcuts' };

export interface FolioBridge {
  /** Where the embedded REST API answers (`http://127.0.0.1:<port>`), for local scripts. */
  readonly apiUrl: string;
  /** The data folder (documents, models, the database), shown in Settings. */
  readonly dataDir: string;
  request(req: BridgeRequest): Promise<BridgeAnswer>;
  upload(req: BridgeUpload): Promise<BridgeAnswer>;
  /** Listens to the app menu; returns the function that stops listening. */
  onMenu(listener: (command: MenuCommand) => void): () => void;
  /** The system's folder chooser (an import folder's path); null when cancelled. Optional: bridges built
   * for tests leave it out, and the form then offers the text field only. */
  chooseFolder?(): Promise<string | null>;
}

/** The IPC channels behind the bridge (preload.cjs spells the same names; a test keeps them equal). */
export const IPC_CHANNELS = { request: 'folio:request', upload: 'folio:upload', menu: 'folio:menu', chooseFolder: 'folio:choose-folder' } as const;

/** The renderer process's argument that tells the preload the API's address (`--folio-api-url=http://...`). */
export const API_URL_ARG = '--folio-api-url=';
/** The same for the data folder (`--folio-data-dir=/home/ada/.local/share/folio`). */
export const DATA_DIR_ARG = '--folio-data-dir=';

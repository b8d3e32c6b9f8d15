// The IPC transport of the desktop window: every call goes through `window.folio`, the one object the
// preload exposes, to the main process, which answers it with the same routes, schemas and services as
// the HTTP API. Answers come back as status + JSON text, so errors are the same ApiError as over HTTP.
// Files (page images, PDFs, the CSV export) load by URL from the window's own origin, as in a browser.
import type { FolioBridge, BridgeAnswer, MenuCommand } from '../../../shared/desktopBridge.ts';
import type { FileKey } from '../../../shared/signedFileUrls.ts';
import { HttpTransport } from './httpTransport.ts';
import { ApiError, type ApiRequest, type QueryValue, type Transport, type UploadRequest } from './transport.ts';

declare global {
  interface Window {
    /** Present in the desktop window only (main/electron/preload.cjs). */
    folio?: FolioBridge;
  }
}

export class IpcTransport implements Transport {
  private readonly files: HttpTransport;

  constructor(
    private readonly bridge: FolioBridge,
    private readonly token: string | null,
    fileKey: FileKey | null = null,
  ) {
    // The window's origin serves the API's files (main/electron/protocol.ts): the browser's rule for file URLs holds.
    this.files = new HttpTransport(token, '', fileKey);
  }

  async request<T>(req: ApiRequest): Promise<T> {
    const answer = await this.call(() => this.bridge.request({ method: req.method, path: req.path, query: queryStrings(req.query), body: req.body, token: this.token }));
    return read<T>(answer);
  }

  async upload<T>(req: UploadRequest): Promise<T> {
    const aborted = () => new DOMException('The upload was cancelled.', 'AbortError');
    if (req.signal?.aborted) throw aborted();
    const total = req.file.size;
    req.onProgress?.(0, total);
    const fields = queryStrings(req.fields);
    const data = await req.file.arrayBuffer();
    // IPC hands the bytes over in one piece: progress jumps from 0 to done, and a cancel only stops the wait.
    const answer = await this.call(() => this.bridge.upload({ path: req.path, fields, fileField: req.fileField, fileName: req.fileName, data, token: this.token }));
    if (req.signal?.aborted) throw aborted();
    req.onProgress?.(total, total);
    return read<T>(answer);
  }

  fileUrl(path: string): string {
    return this.files.fileUrl(path);
  }

  private async call(send: () => Promise<BridgeAnswer>): Promise<BridgeAnswer> {
    try {
      return await send();
    } catch {
      // The main process is gone or refused the message: the same as an HTTP server that cannot be reached.
      throw new ApiError(0, null);
    }
  }
}

/** Query values as the HTTP transport sends them: strings, and empty ones left out. */
function queryStrings(query: Record<string, QueryValue> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') out[k] = String(v);
  return out;
}

function read<T>(answer: BridgeAnswer): T {
  if (answer.status === 204) return undefined as T;
  let body: unknown = null;
  if (answer.body) {
    try {
      body = JSON.parse(answer.body);
    } catch {
      body = answer.body;
    }
  }
  if (answer.status < 200 || answer.status >= 300) throw new ApiError(answer.status, body);
  return body as T;
}

/**
 * Carries out the app menu's commands in the page: imported files arrive as a drop of those files on the
 * window (the documents tab uploads drops into its project), "Keyboard shortcuts" as the "?" key. Returns
 * the function that stops listening.
 */
export function relayDesktopMenu(bridge: FolioBridge, win: Window = window): () => void {
  return bridge.onMenu((command: MenuCommand) => {
    const doc = win.document;
    if (command.kind === 'import-documents') {
      const transfer = new DataTransfer();
      for (const f of command.files) transfer.items.add(new File([f.data], f.name));
      const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
      // Taken (default prevented) only where a view accepts files.
      if (doc.body.dispatchEvent(drop)) win.alert('Open a project\u2019s Documents tab to import files into it.');
    } else if (command.kind === 'show-shortcuts') {
      const key = new KeyboardEvent('keydown', { key: '?', bubbles: true, cancelable: true });
      if (doc.body.dispatchEvent(key)) win.alert('Keyboard shortcuts are listed in the review of a document: open one and press "?".');
    }
  });
}

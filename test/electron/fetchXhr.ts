// XMLHttpRequest for Node, on fetch: the HTTP transport uploads with XHR (the browser API that reports
// upload progress), which Node lacks. Only what HttpTransport.upload uses; the browser's own XHR is
// exercised by the end-to-end tests in Chromium.

class FetchXhr {
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  readonly upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  private method = 'GET';
  private url = '';
  private readonly headers: Record<string, string> = {};
  private responseHeaders = new Headers();
  private readonly controller = new AbortController();

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
  getResponseHeader(name: string): string | null {
    return this.responseHeaders.get(name);
  }
  abort(): void {
    this.controller.abort();
  }
  send(form: FormData): void {
    void this.exchange(form).then(
      () => this.onload?.(),
      () => (this.controller.signal.aborted ? this.onabort?.() : this.onerror?.()),
    );
  }

  private async exchange(form: FormData): Promise<void> {
    // Encoded first, so that progress can name the request's size as XHR does.
    const encoded = new Request(this.url, { method: 'POST', body: form });
    const body = await encoded.arrayBuffer();
    this.upload.onprogress?.({ loaded: body.byteLength, total: body.byteLength, lengthComputable: true });
    const headers = { ...this.headers, 'Content-Type': encoded.headers.get('content-type') ?? '' };
    const res = await fetch(this.url, { method: this.method, headers, body, signal: this.controller.signal });
    this.status = res.status;
    this.responseHeaders = res.headers;
    this.responseText = await res.text();
  }
}

/** Installs the shim where no XMLHttpRequest exists (Node). */
export function installFetchXhr(): void {
  const g = globalThis as { XMLHttpRequest?: unknown };
  if (!g.XMLHttpRequest) g.XMLHttpRequest = FetchXhr;
}

// The HTTP transport: same-origin fetch with the API token in the Authorization header. Uploads use
// XMLHttpRequest, the one browser API that reports upload progress. File URLs (images, PDFs, exports,
// downloads) are signed with a short-lived file key and never carry the token (shared/signedFileUrls.ts).
import { signFileUrl, type FileKey } from '../../../shared/signedFileUrls.ts';
import { ApiError, queryString, type ApiRequest, type Transport, type UploadRequest } from './transport.ts';

export class HttpTransport implements Transport {
  /** `baseUrl` is empty in the page (same origin); tests and scripts may pass an absolute one. */
  constructor(
    private readonly token: string | null,
    private readonly baseUrl = '',
    /** The session's current file key; without one, file URLs are bare (and answer 401). */
    private readonly fileKey: FileKey | null = null,
  ) {}

  async request<T>(req: ApiRequest): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Token ${this.token}`;
    if (req.body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${req.path}${queryString(req.query)}`, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        // The token travels in the header only; no cookies are involved.
        credentials: 'omit',
      });
    } catch {
      throw new ApiError(0, null);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    const parsed = parse(text, res.headers.get('content-type'));
    if (!res.ok) throw new ApiError(res.status, parsed);
    return parsed as T;
  }

  upload<T>(req: UploadRequest): Promise<T> {
    const form = new FormData();
    for (const [k, v] of Object.entries(req.fields)) if (v !== undefined && v !== null) form.append(k, String(v));
    form.append(req.fileField, req.file, req.fileName);
    return new Promise<T>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${this.baseUrl}${req.path}`);
      if (this.token) xhr.setRequestHeader('Authorization', `Token ${this.token}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (e) => req.onProgress?.(e.loaded, e.lengthComputable ? e.total : req.file.size);
      xhr.onload = () => {
        const parsed = parse(xhr.responseText, xhr.getResponseHeader('content-type'));
        if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
        else reject(new ApiError(xhr.status, parsed));
      };
      xhr.onerror = () => reject(new ApiError(0, null));
      xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
      req.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });
  }

  fileUrl(path: string): string {
    // Images and PDFs load through <img>/pdf.js, which cannot set headers: a URL signed for this one file, valid
    // for minutes. Never `?token=`: URLs end up in logs (Folio's, a proxy's, the browser's history).
    return `${this.baseUrl}${this.fileKey ? signFileUrl(path, this.fileKey) : path}`;
  }
}

function parse(text: string, contentType: string | null): unknown {
  if (!text) return null;
  if ((contentType ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

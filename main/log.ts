// The one way Folio writes a problem to its log (stderr, which `folio serve`'s service manager or the desktop
// app keeps): credentials are blanked first. A failed GET's URL may carry `?token=` (scripts), a signed file
// URL or an OpenID Connect `code`; an error may quote an Authorization header or a JSON body with a token.
// Every server log line goes through logProblem: the HTTP errors, the IPC dispatcher, the job runners and the
// import watcher.
import { inspect } from 'node:util';

/** Query parameters whose values are credentials, wherever they occur in a URL (also after `#`). */
const SECRET_PARAMS = ['token', 'access_token', 'refresh_token', 'id_token', 'auth_token', 'api_key', 'password', 'code', 'sig', 'fk', 'sso-token'];
const IN_URL = new RegExp(`([?&;#](?:${SECRET_PARAMS.join('|')})=)[^&#\\s"'<>]+`, 'gi');
/** `Authorization: Token abc…`, `Bearer abc…`, `Basic YWRh…`: the scheme stays, the credential goes. */
const IN_HEADER = /\b(Token|Bearer|Basic)(\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi;
/** `"token": "…"`, `password='…'`, `authorization: '…'` in a logged object or body. */
const IN_FIELD = /(["']?(?:token|access_token|refresh_token|id_token|password|authorization|key)["']?\s*[:=]\s*["'])[^"']+/gi;

/** `text` with every credential it shows replaced by [redacted]. */
export function redactSecrets(text: string): string {
  return text.replace(IN_URL, '$1[redacted]').replace(IN_HEADER, '$1$2[redacted]').replace(IN_FIELD, '$1[redacted]');
}

/** Writes `message` and `error` (its stack and fields) to stderr, redacted. */
export function logProblem(message: string, error?: unknown): void {
  const detail = error === undefined || error === '' ? '' : ` ${typeof error === 'string' ? error : inspect(error, { depth: 4 })}`;
  console.error(redactSecrets(`${message}${detail}`));
}

// The main process's side of the desktop bridge: one handler table, one handler per channel. Each checks
// the shape of what the renderer sent (zod), then hands the request to the same route dispatcher as the
// HTTP server, so the route's own body schema, the services and their access checks all apply.
// Imports only types from electron: tests call the table directly, without the Electron binary.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { IPC_CHANNELS, type BridgeAnswer } from '../../shared/desktopBridge.ts';
import type { RouteDispatcher, ApiAnswer } from '../http/dispatch.ts';
import { validate } from '../http/validation.ts';
import { errorResponse } from '../http/errors.ts';

const Query = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const Token = z.string().min(1).nullable().optional();
const ApiPath = z.string().regex(/^\/[^?#]*$/, 'An API path starting with "/", without query string.');

const RequestEnvelope = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: ApiPath,
  query: Query.optional(),
  body: z.unknown().optional(),
  token: Token,
});

const UploadEnvelope = z.strictObject({
  path: ApiPath,
  fields: z.record(z.string(), z.string()),
  fileField: z.string().min(1),
  fileName: z.string().min(1),
  data: z.union([z.instanceof(ArrayBuffer), z.instanceof(Uint8Array)]),
  token: Token,
});

export type IpcHandler = (input: unknown) => Promise<BridgeAnswer>;
export type IpcChannel = (typeof IPC_CHANNELS)['request' | 'upload'];

const answer = ({ status, body }: ApiAnswer): BridgeAnswer => ({ status, body: body === undefined ? '' : JSON.stringify(body) });

/** A malformed envelope is answered like a malformed HTTP request: 400 with the fields at fault. */
async function checked<S extends z.ZodType>(schema: S, input: unknown, run: (v: z.infer<S>) => Promise<ApiAnswer>): Promise<BridgeAnswer> {
  let value: z.infer<S>;
  try {
    value = validate(schema, input);
  } catch (err) {
    return answer(errorResponse(err));
  }
  return answer(await run(value));
}

/** The handler table: what each channel of the bridge does. */
export function ipcHandlers(dispatcher: RouteDispatcher): Record<IpcChannel, IpcHandler> {
  return {
    [IPC_CHANNELS.request]: (input) =>
      checked(RequestEnvelope, input, (r) => dispatcher.dispatch({ method: r.method, path: r.path, query: r.query ?? {}, body: r.body, token: r.token })),
    [IPC_CHANNELS.upload]: (input) =>
      checked(UploadEnvelope, input, (u) =>
        dispatcher.dispatch({
          method: 'POST',
          path: u.path,
          query: {},
          token: u.token,
          upload: { field: u.fileField, fileName: u.fileName, bytes: u.data instanceof Uint8Array ? u.data : new Uint8Array(u.data), fields: u.fields },
        }),
      ),
  };
}

/**
 * Registers the table with Electron. `trusted` vets the sender of every call (Electron's checklist:
 * validate the sender): only the app's own page may use the API this way.
 */
export function registerIpcHandlers(ipcMain: Pick<IpcMain, 'handle'>, handlers: Record<IpcChannel, IpcHandler>, trusted: (event: IpcMainInvokeEvent) => boolean): void {
  for (const [channel, handler] of Object.entries(handlers)) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!trusted(event)) return { status: 403, body: JSON.stringify({ detail: 'Folio answers its own window only.' }) } satisfies BridgeAnswer;
      return handler(input);
    });
  }
}

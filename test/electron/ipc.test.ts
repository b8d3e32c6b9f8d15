// The main process's IPC handler table, called directly (no Electron binary): the envelope is checked,
// then every request goes through the same routes, zod schemas, authentication and services as over
// HTTP, so the answers are compared with the HTTP server's for the same request.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { RouteDispatcher } from '../../main/http/dispatch.ts';
import { allRoutes } from '../../main/http/routes/index.ts';
import { ipcHandlers, registerIpcHandlers, type IpcHandler } from '../../main/electron/ipc.ts';
import { IPC_CHANNELS, type BridgeAnswer } from '../../shared/desktopBridge.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/testServer.ts';
import { makeTaxonomy, pdfWithText, upload, type Taxonomy } from '../helpers/documentFixtures.ts';

let s: TestServer;
let handlers: ReturnType<typeof ipcHandlers>;
let t: Taxonomy;

beforeAll(async () => {
  // A small upload limit (50 KB), to see the IPC path refuse an oversized file as HTTP does.
  s = await startTestServer({ env: { FOLIO_MAX_UPLOAD_MB: '0.05' } });
  handlers = ipcHandlers(new RouteDispatcher(s.core, allRoutes, s.url));
  t = await makeTaxonomy(s.admin, 'IPC');
});
afterAll(() => s.close());

const parse = (a: BridgeAnswer) => ({ status: a.status, body: a.body === '' ? undefined : JSON.parse(a.body) });
const request = async (input: unknown) => parse(await handlers[IPC_CHANNELS.request](input));
const uploadOverIpc = async (input: unknown) => parse(await handlers[IPC_CHANNELS.upload](input));
const token = () => s.admin.token!;
const same = (ipc: { status: number; body: unknown }, http: ApiResponse) => expect(ipc).toEqual({ status: http.status, body: http.status === 204 ? undefined : http.body });
const leftUploads = () => fs.readdirSync(s.core.blobs.tmpDir).filter((f) => f.endsWith('.upload'));

describe('the envelope of a request', () => {
  it('refuses what is not a request, naming the fields at fault', async () => {
    expect(await request('GET /api/v3/projects/')).toMatchObject({ status: 400, body: { non_field_errors: [expect.any(String)] } });
    const r = await request({ method: 'FETCH', path: 'api/v3/projects/?limit=1', token: token(), extra: 1 });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body).sort()).toEqual(['method', 'non_field_errors', 'path']);
    expect(r.body.path[0]).toMatch(/without query string/);
    const noPath = await request({ method: 'GET', token: token() });
    expect(noPath.body).toEqual({ path: ['This field is required.'] });
  });

  it('refuses an upload without its bytes', async () => {
    const r = await uploadOverIpc({ path: '/api/v3/documents/', fields: { project: String(t.project) }, fileField: 'data_file', fileName: 'a.pdf', data: 'not bytes', token: token() });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['data']);
  });
});

describe('validation by the routes\' own schemas', () => {
  it('answers a body the schema refuses exactly as HTTP does', async () => {
    same(await request({ method: 'POST', path: '/api/v3/projects/', body: {}, token: token() }), await s.admin.post('/api/v3/projects/', {}));
    const label = { project: t.project, name: 'Bad', data_type: 'Colour', label_sets: [t.category] };
    same(await request({ method: 'POST', path: '/api/v3/labels/', body: label, token: token() }), await s.admin.post('/api/v3/labels/', label));
    const patch = { name: 5 };
    same(await request({ method: 'PATCH', path: `/api/v3/projects/${t.project}/`, body: patch, token: token() }), await s.admin.patch(`/api/v3/projects/${t.project}/`, patch));
  });

  it('checks references through the services (an unknown id is a 400 on its field)', async () => {
    const body = { project: t.project, name: 'Orphan', label_sets: [999999], data_type: 'Text' };
    const r = await request({ method: 'POST', path: '/api/v3/labels/', body, token: token() });
    expect(r).toEqual({ status: 400, body: { label_sets: ['Invalid pk "999999" - object does not exist.'] } });
  });

  it('reads lists with the query conventions, sparse fields and paging links on the API address', async () => {
    const query = { project: String(t.project), ordering: '-name', limit: '1', fields: 'name' };
    const r = await request({ method: 'GET', path: '/api/v3/labels/', query, token: token() });
    same(r, await s.admin.get(`/api/v3/labels/?${new URLSearchParams(query)}`));
    expect(r.body.results).toEqual([{ name: 'Total' }]);
    expect(r.body.next).toBe(`${s.url}/api/v3/labels/?project=${t.project}&ordering=-name&limit=1&fields=name&offset=1`);
  });
});

describe('authentication and routing', () => {
  it('needs a token like the HTTP API, and takes the login route without one', async () => {
    same(await request({ method: 'GET', path: '/api/v3/projects/' }), await s.anonymous().get('/api/v3/projects/'));
    const unknown = await request({ method: 'GET', path: '/api/v3/auth/me/', token: 'f'.repeat(40) });
    expect(unknown.status).toBe(401);
    const login = await request({ method: 'POST', path: '/api/v3/auth/', body: { username: 'admin@test.local', password: 'admin-password-1' } });
    expect(login).toEqual({ status: 200, body: { token: token() } });
  });

  it('keeps projects apart: another user gets 404 for the admin\'s project', async () => {
    const eve = await s.userClient('eve-ipc@test.local');
    const r = await request({ method: 'GET', path: `/api/v3/projects/${t.project}/`, token: eve.token });
    same(r, await eve.get(`/api/v3/projects/${t.project}/`));
    expect(r.status).toBe(404);
  });

  it('matches paths as Express does, and answers 404 for unknown endpoints and ids', async () => {
    expect((await request({ method: 'GET', path: `/API/v3/projects/${t.project}`, token: token() })).body).toMatchObject({ id: t.project });
    same(await request({ method: 'GET', path: '/api/v3/projects/abc/', token: token() }), await s.admin.get('/api/v3/projects/abc/'));
    same(await request({ method: 'GET', path: '/api/v3/nothing/', token: token() }), await s.admin.get('/api/v3/nothing/'));
    same(await request({ method: 'DELETE', path: '/api/v3/auth/me/', token: token() }), await s.admin.delete('/api/v3/auth/me/'));
  });

  it('sends no files: those load by URL (406)', async () => {
    const r = await request({ method: 'GET', path: `/api/v3/projects/${t.project}/export/all.csv`, token: token() });
    expect(r.status).toBe(406);
    expect(r.body.detail).toMatch(/load it from its URL/);
  });
});

describe('uploads', () => {
  const pdfUpload = async (fields: Record<string, string>, data?: Uint8Array, fileField = 'data_file') => ({
    path: '/api/v3/documents/',
    fields,
    fileField,
    fileName: 'c:\\scans\\Rechnung März.pdf',
    data: (data ?? (await pdfWithText('Rechnung 2024-9 Summe 7,00 EUR'))).slice().buffer,
    token: token(),
  });

  it('stores the file with the route\'s form coercion (sync "true"), processes it, and leaves no temporary file', async () => {
    const pdf = await pdfWithText('Rechnung 2024-9 Summe 7,00 EUR');
    const r = await uploadOverIpc(await pdfUpload({ project: String(t.project), category: String(t.category), sync: 'true' }, pdf));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ data_file_name: 'Rechnung März.pdf', project: t.project, category: t.category, status_data: 2 });
    expect(r.body.text).toContain('Rechnung 2024-9');
    const stored = await s.core.repos.documents.findById(r.body.id);
    expect(fs.readFileSync(await s.core.blobs.pathOf(stored!.blob_key))).toEqual(Buffer.from(pdf));
    expect(leftUploads()).toEqual([]);
  });

  it('answers a refused upload as HTTP does, and removes the file', async () => {
    const missingProject = await uploadOverIpc(await pdfUpload({}));
    same(missingProject, await upload(s.admin, {}));
    expect(missingProject.body).toEqual({ project: ['This field is required.'] });

    const big = new Uint8Array(60 * 1024);
    const tooLarge = await uploadOverIpc(await pdfUpload({ project: String(t.project) }, big));
    same(tooLarge, await upload(s.admin, { project: t.project }, { name: 'big.pdf', data: big }));
    expect(tooLarge.status).toBe(413);

    const wrongPart = await uploadOverIpc(await pdfUpload({ project: String(t.project) }, undefined, 'file'));
    const form = new FormData();
    form.append('project', String(t.project));
    form.append('file', new Blob([(await pdfWithText('x')) as BlobPart]), 'x.pdf');
    same(wrongPart, await s.admin.request('POST', '/api/v3/documents/', { raw: { data: form } }));
    expect(wrongPart.status).toBe(400);
    expect(Object.keys(wrongPart.body)).toEqual(['file']);
    expect(leftUploads()).toEqual([]);
  });

  it('keeps files and JSON apart (415 either way)', async () => {
    expect((await request({ method: 'POST', path: '/api/v3/documents/', body: { project: t.project }, token: token() })).status).toBe(415);
    const toJsonRoute = await uploadOverIpc({ ...(await pdfUpload({ name: 'x' })), path: '/api/v3/projects/' });
    expect(toJsonRoute.status).toBe(415);
    expect(leftUploads()).toEqual([]);
  });

  it('needs a token before it stores anything', async () => {
    const r = await uploadOverIpc({ ...(await pdfUpload({ project: String(t.project) })), token: null });
    expect(r.status).toBe(401);
    expect(leftUploads()).toEqual([]);
  });
});

describe('registration with Electron', () => {
  it('registers one handler per channel and answers only the app\'s own page', async () => {
    const registered = new Map<string, (event: IpcMainInvokeEvent, input: unknown) => unknown>();
    const fakeIpcMain = { handle: (channel: string, fn: (event: IpcMainInvokeEvent, input: unknown) => unknown) => void registered.set(channel, fn) };
    const calls: unknown[] = [];
    const table: Record<'folio:request' | 'folio:upload', IpcHandler> = {
      'folio:request': async (input) => (calls.push(input), { status: 200, body: '{}' }),
      'folio:upload': async () => ({ status: 201, body: '{}' }),
    };
    registerIpcHandlers(fakeIpcMain, table, (event) => event.senderFrame?.url.startsWith('folio://app/') ?? false);
    expect([...registered.keys()].sort()).toEqual(['folio:request', 'folio:upload']);

    const from = (url: string) => ({ senderFrame: { url } }) as unknown as IpcMainInvokeEvent;
    const refused = (await registered.get('folio:request')!(from('https://evil.example/'), { method: 'GET' })) as BridgeAnswer;
    expect(refused.status).toBe(403);
    expect(calls).toEqual([]);
    const ok = (await registered.get('folio:request')!(from('folio://app/#/projects'), { method: 'GET' })) as BridgeAnswer;
    expect(ok.status).toBe(200);
    expect(calls).toEqual([{ method: 'GET' }]);
  });

  it('makes the real table of the same two channels', () => {
    expect(Object.keys(handlers).sort()).toEqual([IPC_CHANNELS.request, IPC_CHANNELS.upload].sort());
  });
});

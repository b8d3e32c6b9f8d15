// One suite of client-level contract tests (renderer/src/api/client.ts FolioClient), run twice: over the
// HTTP transport against the real server, and over the IPC transport whose `window.folio` calls the main
// process's IPC handler table directly (no Electron binary; arguments go through structuredClone, as IPC
// serializes them). The assertions are the same: the two doors answer alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolioClient } from '../../renderer/src/api/client.ts';
import { HttpTransport } from '../../renderer/src/api/httpTransport.ts';
import { IpcTransport } from '../../renderer/src/api/ipcTransport.ts';
import { ApiError } from '../../renderer/src/api/transport.ts';
import type { FolioBridge } from '../../shared/desktopBridge.ts';
import { RouteDispatcher } from '../../main/http/dispatch.ts';
import { allRoutes } from '../../main/http/routes/index.ts';
import { ipcHandlers } from '../../main/electron/ipc.ts';
import { ADMIN, startTestServer, type TestServer } from '../helpers/testServer.ts';
import { pdfWithText } from '../helpers/documentFixtures.ts';
import { installFetchXhr } from './fetchXhr.ts';

installFetchXhr();

/** `window.folio` as the preload builds it, with the main process's handler table behind it. */
function directBridge(s: TestServer): FolioBridge {
  const handlers = ipcHandlers(new RouteDispatcher(s.core, allRoutes, s.url));
  return {
    apiUrl: s.url,
    dataDir: s.core.config.dataDir,
    request: async (req) => handlers['folio:request'](structuredClone(req)),
    upload: async (req) => handlers['folio:upload'](structuredClone(req)),
    onMenu: () => () => {},
  };
}

const doors: { door: string; clientFor(s: TestServer, token: string | null): FolioClient }[] = [
  { door: 'HTTP', clientFor: (s, token) => new FolioClient(new HttpTransport(token, s.url)) },
  { door: 'IPC', clientFor: (s, token) => new FolioClient(new IpcTransport(directBridge(s), token)) },
];

/** The ApiError a call fails with (the test fails if it succeeds). */
async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}

const TEXT = 'Invoice 2024-117 Total 99,00 EUR';

describe.each(doors)('FolioClient over $door', ({ clientFor }) => {
  let s: TestServer;
  let api: FolioClient;
  let project: number;
  let category: number;
  let total: number;
  let documentId: number;

  beforeAll(async () => {
    s = await startTestServer();
    const token = await clientFor(s, null).login(ADMIN.email, ADMIN.password);
    api = clientFor(s, token);
  });
  afterAll(() => s.close());

  it('logs in and says who is logged in; a wrong password is a 400 that says why', async () => {
    expect(await api.me()).toMatchObject({ email: ADMIN.email, is_admin: true });
    const wrong = await failure(clientFor(s, null).login(ADMIN.email, 'not the password'));
    expect(wrong.status).toBe(400);
    expect(wrong.fieldErrors('non_field_errors')[0]).toMatch(/unable to log in/i);
  });

  it('answers 401 without a token or with an unknown one', async () => {
    const none = await failure(clientFor(s, null).listProjects());
    expect(none.status).toBe(401);
    expect(none.message).toBe('Authentication credentials were not provided.');
    const unknown = await failure(clientFor(s, 'f'.repeat(40)).me());
    expect(unknown.status).toBe(401);
    expect(unknown.message).toMatch(/invalid token/i);
  });

  it('creates, lists and reads projects; field errors come back per field', async () => {
    const p = await api.createProject({ name: 'Contract' });
    project = p.id;
    expect(p).toMatchObject({ name: 'Contract' });
    const list = await api.listProjects({ limit: 1 });
    expect(list.count).toBe(1);
    expect(list.results.map((x) => x.id)).toEqual([project]);
    expect(list.next).toBeNull();
    expect((await api.getProject(project)).name).toBe('Contract');

    const invalid = await failure(api.createProject({} as never));
    expect(invalid.status).toBe(400);
    expect(invalid.fieldErrors('name')).toEqual(['This field is required.']);
    const missing = await failure(api.getProject(987654));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: expect.any(String) });
  });

  it('builds a taxonomy: category with its default label set, a label in it', async () => {
    category = (await api.createCategory(project, 'Invoice')).id;
    const label = await api.createLabel({ project, name: 'Total', data_type: 'Text', label_sets: [category] });
    total = label.id;
    expect(label.label_sets).toEqual([category]);
    const sets = await api.listLabelSets(project);
    expect(sets.results.find((x) => x.id === category)).toMatchObject({ is_default: true });
    expect((await api.listLabels(project)).results.map((l) => l.name)).toEqual(['Total']);
    const bad = await failure(api.createLabel({ project, name: 'X', data_type: 'Text', label_sets: [999999] }));
    expect(bad.status).toBe(400);
    expect(bad.fieldErrors('label_sets')[0]).toMatch(/Invalid pk "999999"/);
  });

  it('uploads a PDF, which is processed into pages and text', async () => {
    const pdf = await pdfWithText(TEXT);
    const progress: number[] = [];
    const doc = await api.uploadDocument({ project, category, file: new Blob([pdf as BlobPart], { type: 'application/pdf' }), fileName: 'invoice-117.pdf', onProgress: (sent) => progress.push(sent) });
    documentId = doc.id;
    expect(doc).toMatchObject({ data_file_name: 'invoice-117.pdf', project, category });
    // The whole request was sent (multipart adds its framing to the file's bytes over HTTP).
    expect(progress.at(-1)).toBeGreaterThanOrEqual(pdf.byteLength);

    const deadline = Date.now() + 60_000;
    let detail = await api.getDocument(documentId);
    while (![2, 111].includes(detail.status_data) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      detail = await api.getDocument(documentId);
    }
    expect(detail.status_data).toBe(2);
    expect(detail.text).toContain('Invoice 2024-117');
    expect(detail.number_of_pages).toBe(1);

    const pages = await api.listPages(documentId);
    expect(pages).toHaveLength(1);
    expect((await api.getPage(documentId, 1)).number).toBe(1);
    const boxes = await api.charBoxes(documentId);
    expect(Object.values(boxes.bbox).map((c) => c.text).join('')).toContain('Invoice2024-117');

    const noFile = await failure(api.uploadDocument({ project: 987654, file: new Blob([pdf as BlobPart]), fileName: 'x.pdf' }));
    expect(noFile.status).toBe(400);
    expect(noFile.fieldErrors('project')[0]).toMatch(/Invalid pk "987654"/);
  });

  it('finds text, annotates it, reviews the annotation, and records a missing one', async () => {
    const hits = await api.search(documentId, '99,00');
    expect(hits.map((h) => h.offset_string)).toEqual(['99,00']);
    const a = await api.createAnnotation({ document: documentId, label: total, label_set: category, span: hits, is_correct: false, revised: false });
    expect(a).toMatchObject({ offset_string: '99,00', review_state: 'Feedback required' });
    const [reviewed] = await api.reviewAnnotations(documentId, [a.id], true);
    expect(reviewed).toMatchObject({ id: a.id, is_correct: true, revised: true, review_state: 'Accepted' });

    await api.deleteAnnotation(a.id);
    const m = await api.createMissing({ document: documentId, label: total, label_set: category });
    expect(m).toMatchObject({ document: documentId, label: total });
    const labels = (await api.getDocument(documentId)).annotation_sets.flatMap((x) => x.labels);
    expect(labels.find((l) => l.id === total)).toMatchObject({ status: 'Not found', missing_annotation: m.id });
    await api.deleteMissing(m.id);
    const gone = await failure(api.deleteMissing(m.id));
    expect(gone.status).toBe(404);
  });

  it('lists AI records (none yet) and refuses a training without training documents', async () => {
    const ais = await api.listAis('extraction', project);
    expect(ais).toMatchObject({ count: 0, results: [] });
    const refused = await failure(api.trainAi('extraction', { category }));
    expect(refused.status).toBe(400);
  });

  it('pages lists with absolute links on the API address, and keeps sparse fields', async () => {
    await api.createProject({ name: 'Contract 2' });
    const first = await api.listProjects({ limit: 1, ordering: 'id' });
    expect(first.count).toBe(2);
    expect(first.next).toBe(`${s.url}/api/v3/projects/?limit=1&ordering=id&offset=1`);
    const sparse = await api.listProjects({ fields: 'id', ordering: 'id' } as never);
    expect(sparse.results[0]).toEqual({ id: project });
  });
});

// Naming a model (the AI tab renames in place): PATCH name on each kind of AI record, what is refused and
// that a refusal changes nothing. The records are written to the store as a finished training leaves them;
// training itself is tested in extractionAis, categorization and splitting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { makeTaxonomy, type Taxonomy } from '../helpers/documentFixtures.ts';
import type { AiKind } from '../../main/store/schema.ts';

let s: TestServer;
let t: Taxonomy;
const paths: Record<AiKind, string> = { extraction: '/api/v3/extraction-ais/', categorization: '/api/v3/category-ais/', splitting: '/api/v3/splitting-ais/' };

beforeAll(async () => {
  s = await startTestServer();
  t = await makeTaxonomy(s.admin, 'Named AIs');
});
afterAll(() => s.close());

async function finishedAi(kind: AiKind): Promise<number> {
  const ai = await s.core.repos.aiModels.insert({
    kind, project_id: t.project, category_id: kind === 'extraction' ? t.category : null, status: 'done', stage: null, error: null,
    evaluation: null, training: null, model_blob: null, model_size: null, created_by: null, started_at: null, finished_at: null,
  });
  return ai.id;
}

describe('an AI model is named and renamed', () => {
  for (const kind of ['extraction', 'categorization', 'splitting'] as const) {
    it(`PATCH ${paths[kind]}<id>/ sets the name, which the list and the detail show`, async () => {
      const id = await finishedAi(kind);
      expect((await s.admin.get(`${paths[kind]}${id}/`)).body.name).toBe('');
      const named = await s.admin.patch(`${paths[kind]}${id}/`, { name: 'Spring invoices' });
      expect(named.status, named.text).toBe(200);
      expect(named.body).toMatchObject({ id, kind, name: 'Spring invoices', status: 'done' });
      const renamed = await s.admin.patch(`${paths[kind]}${id}/`, { name: 'Summer invoices' });
      expect(renamed.body.name).toBe('Summer invoices');
      expect((await s.admin.get(`${paths[kind]}${id}/`)).body.name).toBe('Summer invoices');
      const listed = await s.admin.get(`${paths[kind]}?project_id=${t.project}`);
      expect(listed.body.results.find((a: any) => a.id === id).name).toBe('Summer invoices');
      // Only the name changed: the description and the model in use stay.
      expect(renamed.body).toMatchObject({ description: '', active: false });
    });
  }

  it('refuses a name that is too long or not text with 400 on name, and keeps the old one', async () => {
    const id = await finishedAi('extraction');
    await s.admin.patch(`${paths.extraction}${id}/`, { name: 'Kept' });
    for (const name of ['x'.repeat(256), 42, null]) {
      const r = await s.admin.patch(`${paths.extraction}${id}/`, { name });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.body.name?.[0], r.text).toBeTruthy();
    }
    expect((await s.admin.get(`${paths.extraction}${id}/`)).body.name).toBe('Kept');
  });

  it('needs membership of the project (404) and credentials (401), and an AI of the path’s kind', async () => {
    const id = await finishedAi('categorization');
    const outsider = await s.userClient('outsider-ai-names@test.local');
    expect((await outsider.patch(`${paths.categorization}${id}/`, { name: 'Mine' })).status).toBe(404);
    expect((await s.anonymous().patch(`${paths.categorization}${id}/`, { name: 'Mine' })).status).toBe(401);
    expect((await s.admin.patch(`${paths.splitting}${id}/`, { name: 'Wrong kind' })).status).toBe(404);
    expect((await s.admin.get(`${paths.categorization}${id}/`)).body.name).toBe('');
  });
});

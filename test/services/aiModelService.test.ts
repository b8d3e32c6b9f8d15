// AiModelService's rules without HTTP: a training is refused with a 400 saying what is missing (scope,
// processed training documents, splitting turned on), an accepted one is recorded and queued; only a
// finished AI can be active; uploaded model files are checked; AIs are kept to the project's members.
// The training itself is a job (main/ai/trainingJob.ts) that does not run here.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../main/domain/errors.ts';
import { DatasetStatus } from '../../main/domain/documentStatus.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { listParams, openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let t: Taxonomy;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@ais.test');
  stranger = await f.user('stranger@ais.test');
  t = await f.taxonomy(owner, (await f.project(owner, 'AIs')).id);
});
afterAll(() => f?.close());

const fields = async (call: Promise<unknown>) => (await refused(call, ValidationError)).fields;

describe('AiModelService', () => {
  it('needs the scope of each kind: a category of a project of the caller, or a project', async () => {
    const ai = f.services.aiModels;
    expect(await fields(ai.create(owner, 'extraction', {}))).toEqual({ category: ['This field is required.'] });
    expect(await fields(ai.create(stranger, 'extraction', { category: t.category }))).toEqual({ category: [`Invalid pk "${t.category}" - object does not exist.`] });
    expect(await fields(ai.create(owner, 'categorization', {}))).toEqual({ project: ['This field is required.'] });
    expect(await fields(ai.create(owner, 'splitting', { project: t.project }))).toEqual({
      project: ['Document splitting is not enabled for this project: set splitting_enabled true on the project first.'],
    });
  });

  it('refuses to train without processed training documents, saying how to make them', async () => {
    const ai = f.services.aiModels;
    // Training documents count only once processed; a categorized one is what categorization needs.
    await f.upload(owner, { project: t.project, category: t.category, dataset_status: DatasetStatus.TRAINING });
    await f.processed(owner, { project: t.project, category: t.category });
    expect((await fields(ai.create(owner, 'extraction', { category: t.category }))).category[0]).toMatch(/^The category has no training document yet: .*dataset_status 2\)\.$/);
    expect((await fields(ai.create(owner, 'categorization', { project: t.project }))).project[0]).toMatch(/^The project has no categorized training document yet/);
    await f.services.projects.update(owner, t.project, { splitting_enabled: true });
    expect((await fields(ai.create(owner, 'splitting', { project: t.project }))).project[0]).toMatch(/^The project has no training document yet/);
    expect((await ai.list(owner, 'extraction', listParams())).count).toBe(0);
  });

  it('records and queues a training once a processed document is in the training dataset; only a finished AI can be active', async () => {
    await f.processed(owner, { project: t.project, category: t.category, dataset_status: DatasetStatus.TRAINING });
    const ai = await f.services.aiModels.create(owner, 'extraction', { category: t.category, name: 'First' });
    expect([ai.status, ai.category_id, ai.project_id, ai.name, ai.active]).toEqual(['queued', t.category, t.project, 'First', false]);
    expect(await fields(f.services.aiModels.patch(owner, 'extraction', ai.id, { active: true }))).toEqual({ active: ['Only a finished AI can be active; this one is queued.'] });
    expect((await refused(f.services.aiModels.file(owner, ai.id), NotFoundError)).message).toBe('The model file is not there yet (the AI is queued).');
    expect((await f.services.aiModels.patch(owner, 'extraction', ai.id, { name: 'Renamed' })).name).toBe('Renamed');
  });

  it('takes only Folio model files of the kind', async () => {
    const ai = f.services.aiModels;
    expect(await fields(ai.upload(owner, 'extraction', { category: t.category }, undefined))).toEqual({ file: ['No model file was submitted (multipart part "file").'] });
    const file = f.core.blobs.tempPath('.json');
    fs.writeFileSync(file, '{"not": "a model"}');
    expect((await fields(ai.upload(owner, 'extraction', { category: t.category }, { path: file, originalname: 'model.json', size: 18 }))).file[0]).toMatch(/^Not a Folio extraction AI model file: /);
  });

  it("keeps AIs to the project's members and to their own kind", async () => {
    await f.processed(owner, { project: t.project, category: t.category, dataset_status: DatasetStatus.TRAINING });
    const ai = await f.services.aiModels.create(owner, 'extraction', { category: t.category });
    expect((await refused(f.services.aiModels.get(stranger, 'extraction', ai.id), NotFoundError)).message).toBe('Extraction AI not found.');
    await refused(f.services.aiModels.remove(stranger, 'extraction', ai.id), NotFoundError);
    expect((await refused(f.services.aiModels.get(owner, 'splitting', ai.id), NotFoundError)).message).toBe('Splitting AI not found.');
    await f.services.aiModels.remove(owner, 'extraction', ai.id);
    await refused(f.services.aiModels.get(owner, 'extraction', ai.id), NotFoundError);
  });
});

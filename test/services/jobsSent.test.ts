// The jobs the services send through the queue they are given (main/jobs/kinds.ts), each in the
// transaction of what it is about: an upload its processing and its assignee's email, a refused upload
// nothing, a reading again its read-again job with the languages, a new AI its training. The job runners
// do not run here (see fixture.ts): the rows are what the services left.
import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetStatus } from '../../main/domain/documentStatus.ts';
import type { JobRow, UserRow } from '../../main/store/schema.ts';
import { openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';
import { ValidationError } from '../../main/domain/errors.ts';

let f: Fixture;
let owner: UserRow;
let member: UserRow;
let t: Taxonomy;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@jobs.test');
  member = await f.user('member@jobs.test');
  t = await f.taxonomy(owner, (await f.project(owner, 'Jobs', [member])).id);
});
afterAll(() => f?.close());

const sent = (rows: JobRow[]) => rows.map((j) => ({ kind: j.kind, dedupe_key: j.dedupe_key, payload: JSON.parse(j.payload), max_attempts: j.max_attempts, state: j.state }));
const allJobs = () => f.core.store.db.selectFrom('jobs').selectAll().orderBy('id').execute();

describe('jobs sent by the services', () => {
  it('an upload sends its processing, and the email to its assignee when it has one', async () => {
    const plain = await f.upload(owner, { project: t.project });
    expect(sent(await f.core.repos.jobs.listByDocument(plain.id))).toEqual([
      { kind: 'process-document', dedupe_key: `process:${plain.id}`, payload: { documentId: plain.id }, max_attempts: 5, state: 'queued' },
    ]);
    const assigned = await f.upload(owner, { project: t.project, assignee: member.id });
    expect(sent(await f.core.repos.jobs.listByDocument(assigned.id)).map((j) => [j.kind, j.dedupe_key])).toEqual([
      ['process-document', `process:${assigned.id}`],
      ['notify-assignee', `notify:${assigned.id}`],
    ]);
  });

  it('a refused upload sends nothing, also when it fails after its jobs were sent in its transaction', async () => {
    const before = (await allJobs()).length;
    await refused(f.upload(owner, { project: t.project, assignee: 'nobody@jobs.test' }), ValidationError);
    const file = f.core.blobs.tempPath('.upload');
    const pdf = await PDFDocument.create();
    pdf.addPage([595, 842]);
    fs.writeFileSync(file, await pdf.save());
    const late = f.services.documents.upload(owner, { project: t.project, assignee: member.id }, { path: file, originalname: 'late.pdf', size: fs.statSync(file).size }, {
      inTransaction: async () => {
        throw new Error('the caller fails after the jobs were sent');
      },
    });
    await expect(late).rejects.toThrow('the caller fails after the jobs were sent');
    expect((await allJobs()).length).toBe(before);
  });

  it('reading again sends the read-again job with the languages asked for, keyed by the state read', async () => {
    const { doc } = await f.processed(owner, { project: t.project });
    await f.services.readAgain.readDocument(owner, doc.id, { ocr_languages: ['English'] });
    const jobs = sent(await f.core.repos.jobs.listByDocument(doc.id)).filter((j) => j.kind === 'read-again-document');
    expect(jobs).toEqual([{ kind: 'read-again-document', dedupe_key: `read-again:${doc.id}:${doc.updated_at}`, payload: { documentId: doc.id, langs: ['eng'] }, max_attempts: 5, state: 'queued' }]);
  });

  it('a new AI sends its training, with two attempts', async () => {
    await f.processed(owner, { project: t.project, category: t.category, dataset_status: DatasetStatus.TRAINING });
    const ai = await f.services.aiModels.create(owner, 'extraction', { category: t.category });
    const training = (await allJobs()).filter((j) => j.kind === 'train-ai');
    expect(sent(training)).toEqual([{ kind: 'train-ai', dedupe_key: `train:${ai.id}`, payload: { aiId: ai.id }, max_attempts: 2, state: 'queued' }]);
    expect(training[0].document_id).toBeNull();
  });
});

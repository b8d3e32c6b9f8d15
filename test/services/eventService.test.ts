// EventService's rules without HTTP: a user reads the emails addressed to them (an administrator every
// one), and the callback attempts of documents they can see. The records are written the way Folio
// writes them: the core's mailer (no SMTP here, so messages are kept) and attemptCallback for a refused
// address (recorded without any connection).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../main/domain/errors.ts';
import { attemptCallback } from '../../main/events/callbacks.ts';
import { callbackPolicy } from '../../main/events/callbackTargets.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { listParams, openFixture, refused, type Fixture } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@events.test');
  stranger = await f.user('stranger@events.test');
});
afterAll(() => f?.close());

describe('EventService', () => {
  it('shows a user only the messages addressed to them, the administrator all of them', async () => {
    const kept = await f.core.mailer.send({ to: owner.email, subject: 'Processed', text: 'Your upload is done.', kind: 'upload' });
    expect(kept.state).toBe('kept');
    await f.core.mailer.send({ to: stranger.email, subject: 'Trained', text: 'Your AI is ready.', kind: 'training' });
    const subjects = async (u: UserRow) => (await f.services.events.outbox(u, listParams())).items.map((m) => m.subject).sort();
    expect(await subjects(owner)).toEqual(['Processed']);
    expect(await subjects(stranger)).toEqual(['Trained']);
    expect(await subjects(f.admin)).toEqual(['Processed', 'Trained']);
  });

  it("shows a document's callback attempts to its project's members only", async () => {
    const project = await f.project(owner, 'Callbacks');
    const doc = await f.upload(owner, { project: project.id });
    const outcome = await attemptCallback(
      { url: 'http://metadata.google.internal/done', body: { id: doc.id }, documentId: doc.id },
      { log: f.core.repos.events, policy: callbackPolicy({ listensOnLoopback: true }) },
    );
    expect(outcome.delivered).toBe(false);
    const attempts = await f.services.events.callbackAttempts(owner, doc.id, listParams());
    expect(attempts.items.map((a) => [a.url, a.attempt, a.status_code])).toEqual([['http://metadata.google.internal/done', 1, null]]);
    expect(attempts.items[0].error).toMatch(/cloud metadata service/);
    expect((await refused(f.services.events.callbackAttempts(stranger, doc.id, listParams()), NotFoundError)).message).toBe('Document not found.');
    await refused(f.services.events.callbackAttempts(f.admin, doc.id, listParams()), NotFoundError);
  });
});

// Durability of a real `folio serve` process: a clean restart keeps every record and token, and a
// SIGKILL in the middle of a burst of concurrent writes loses no acknowledged write and leaves a
// consistent database (integrity, foreign keys, and the rows each create writes together).
import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, Client, tempDir } from './helpers/testServer.ts';
import { killAllFolios, startFolio } from './helpers/processes.ts';

afterEach(killAllFolios);

const adminEnv = { FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password };
const USERS = ['ann@test.local', 'ben@test.local', 'cid@test.local'];
const USER_PASSWORD = 'user-password-1';

async function createUsers(admin: Client): Promise<void> {
  for (const email of USERS) {
    const r = await admin.post('/api/v3/users/', { email, password: USER_PASSWORD });
    expect(r.status, r.text).toBe(201);
  }
}

/** Everything a user can read of their projects, without the paging URLs (the port changes on restart). */
async function projectsSeenBy(c: Client) {
  const list = await c.get('/api/v3/projects/?limit=1000&ordering=id');
  expect(list.status).toBe(200);
  return Promise.all(
    list.body.results.map(async (p: { id: number }) => ({ project: p, members: (await c.get(`/api/v3/projects/${p.id}/members/`)).body.results })),
  );
}

describe('a clean restart (SIGTERM, then start on the same data folder)', () => {
  it('keeps every user, project and membership, and the tokens keep working', async () => {
    const dataDir = tempDir();
    const first = await startFolio({ dataDir, env: adminEnv });
    const admin = new Client(first.url);
    const adminToken = await admin.login(ADMIN.email, ADMIN.password);
    await createUsers(admin);
    const ann = new Client(first.url);
    const annToken = await ann.login(USERS[0], USER_PASSWORD);

    for (let i = 1; i <= 5; i++) {
      const p = await admin.post('/api/v3/projects/', { name: `Project ${i}` });
      expect(p.status).toBe(201);
      // Ann joins the odd projects, Ben all of them.
      if (i % 2) expect((await admin.post(`/api/v3/projects/${p.body.id}/members/`, { email: USERS[0] })).status).toBe(201);
      expect((await admin.post(`/api/v3/projects/${p.body.id}/members/`, { email: USERS[1] })).status).toBe(201);
    }
    expect((await ann.post('/api/v3/projects/', { name: "Ann's own" })).status).toBe(201);

    const before = { admin: await projectsSeenBy(admin), ann: await projectsSeenBy(ann), users: (await admin.get('/api/v3/users/')).body.results };
    // The administrator sees every project, Ann's own included (roles: administrators manage every project).
    expect(before.admin).toHaveLength(6);
    expect(before.ann).toHaveLength(4);
    expect(before.users).toHaveLength(4);

    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const second = await startFolio({ dataDir, env: adminEnv });
    const admin2 = new Client(second.url, adminToken);
    const ann2 = new Client(second.url, annToken);
    expect((await admin2.get('/api/v3/auth/me/')).body).toMatchObject({ email: ADMIN.email });
    expect((await ann2.get('/api/v3/auth/me/')).body).toMatchObject({ email: USERS[0] });
    expect({ admin: await projectsSeenBy(admin2), ann: await projectsSeenBy(ann2), users: (await admin2.get('/api/v3/users/')).body.results }).toEqual(before);
    // Logging in again hands out the same token as before the restart.
    expect(await new Client(second.url).login(ADMIN.email, ADMIN.password)).toBe(adminToken);
    expect(second.stdout()).not.toContain('First run');
    await second.stop();
  });
});

/** Bounds of the burst: it stops by itself even if the kill never came. */
const WORKERS = 12;
const KILL_AFTER_ACKS = 300;
const MAX_REQUESTS = 5_000;
const MAX_BURST_MS = 15_000;

interface Acked {
  projects: { id: number; name: string }[];
  members: { project: number; email: string }[];
  categories: { id: number; project: number }[];
  labels: { id: number; project: number; category: number }[];
}

describe('SIGKILL during a burst of concurrent writes', () => {
  it('loses no acknowledged create and leaves a consistent database', async () => {
    const dataDir = tempDir();
    const server = await startFolio({ dataDir, env: adminEnv });
    const admin = new Client(server.url);
    await admin.login(ADMIN.email, ADMIN.password);
    await createUsers(admin);

    const seed = (await admin.post('/api/v3/projects/', { name: 'Seed' })).body as { id: number; name: string };
    const acked: Acked = { projects: [seed], members: [], categories: [], labels: [] };
    // Categories and labels join the burst where this build has their endpoints (404 where not).
    const probe = await admin.post('/api/v3/categories/', { project: seed.id, name: 'Probe' });
    expect([201, 404], probe.text).toContain(probe.status);
    const withTaxonomy = probe.status === 201;
    if (withTaxonomy) acked.categories.push({ id: probe.body.id, project: seed.id });

    // Names are unique per project where the API requires it: a counter, not the racing list lengths.
    let seq = 0;
    const ops: (() => Promise<void>)[] = [
      async () => {
        const name = `Burst ${++seq}`;
        const r = await admin.post('/api/v3/projects/', { name });
        expectCreated(r);
        acked.projects.push({ id: r.body.id, name });
      },
      async () => {
        const project = pick(acked.projects).id;
        const email = pick(USERS);
        expectCreated(await admin.post(`/api/v3/projects/${project}/members/`, { email }));
        acked.members.push({ project, email });
      },
    ];
    if (withTaxonomy) {
      ops.push(
        async () => {
          const project = pick(acked.projects).id;
          const r = await admin.post('/api/v3/categories/', { project, name: `Category ${++seq}` });
          expectCreated(r);
          acked.categories.push({ id: r.body.id, project });
        },
        async () => {
          const { id: category, project } = pick(acked.categories);
          const r = await admin.post('/api/v3/labels/', { project, name: `Label ${++seq}`, categories: [category] });
          expectCreated(r);
          acked.labels.push({ id: r.body.id, project, category });
        },
      );
    }

    // The burst: workers fire creates back to back until the server dies under them.
    let killed = false;
    let sent = 0;
    let inFlightAtKill = 0;
    let inFlight = 0;
    const unexpected: string[] = [];
    const ackCount = () => acked.projects.length + acked.members.length + acked.categories.length + acked.labels.length;
    const kill = () => {
      if (killed) return;
      killed = true;
      inFlightAtKill = inFlight;
      void server.kill();
    };
    const deadline = Date.now() + MAX_BURST_MS;
    const worker = async (w: number) => {
      for (let i = w; !killed && sent < MAX_REQUESTS && Date.now() < deadline; i++) {
        sent++;
        inFlight++;
        try {
          await ops[i % ops.length]();
        } catch (err) {
          // After the kill, requests fail on the dead connection: they were never acknowledged.
          if (!killed) unexpected.push((err as Error).message);
        } finally {
          inFlight--;
        }
        if (ackCount() >= KILL_AFTER_ACKS) kill();
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    kill();
    expect(unexpected, 'every request before the kill was answered 201').toEqual([]);
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(inFlightAtKill, 'the kill came while writes were in flight').toBeGreaterThan(0);
    expect(acked.projects.length).toBeGreaterThan(1);
    expect(acked.members.length).toBeGreaterThan(0);

    // Start again on the same folder: the dead process left no lock behind, and SQLite recovers the WAL.
    const restarted = await startFolio({ dataDir, env: adminEnv });
    const sqlite = new BetterSqlite3(path.join(dataDir, 'folio.db'));
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(sqlite.pragma('foreign_key_check')).toEqual([]);

      const projects = new Map((sqlite.prepare('select id, name from projects').all() as { id: number; name: string }[]).map((p) => [p.id, p.name]));
      for (const p of acked.projects) expect(projects.get(p.id), `project ${p.id}`).toBe(p.name);
      const member = sqlite.prepare('select 1 from project_members m join users u on u.id = m.user_id where m.project_id = ? and u.email = ?');
      for (const m of acked.members) expect(member.get(m.project, m.email), `member ${m.email} of ${m.project}`).toBeDefined();
      // A project and its owner's membership are written in one transaction: never one without the other.
      expect(
        sqlite.prepare("select id from projects p where not exists (select 1 from project_members m where m.project_id = p.id and m.role = 'owner')").all(),
      ).toEqual([]);

      if (withTaxonomy) {
        const category = sqlite.prepare('select project_id from categories where id = ?').pluck();
        for (const c of acked.categories) expect(category.get(c.id), `category ${c.id}`).toBe(c.project);
        const inSet = sqlite.prepare('select 1 from label_set_labels where label_id = ? and label_set_id = ?');
        for (const l of acked.labels) expect(inSet.get(l.id, l.category), `label ${l.id} in the default set of ${l.category}`).toBeDefined();
        // Every category has its default label set (same id) linked to it, written with it.
        expect(
          sqlite
            .prepare(
              'select c.id from categories c where not exists (select 1 from label_sets s join label_set_categories l on l.label_set_id = s.id and l.category_id = c.id where s.id = c.id and s.is_default = 1)',
            )
            .all(),
        ).toEqual([]);
      }
    } finally {
      sqlite.close();
    }

    // And the API serves all of it.
    const after = new Client(restarted.url, admin.token);
    const listed = await after.get('/api/v3/projects/?limit=1000');
    expect(listed.status).toBe(200);
    const ids = new Set(listed.body.results.map((p: { id: number }) => p.id));
    for (const p of acked.projects) expect(ids.has(p.id), `project ${p.id} listed`).toBe(true);
    await restarted.stop();
  });
});

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

function expectCreated(r: { status: number; text: string }): void {
  if (r.status !== 201) throw new Error(`expected 201, got ${r.status}: ${r.text}`);
}

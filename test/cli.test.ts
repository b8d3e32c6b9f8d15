// The `folio` command as a user runs it (node bin/folio.mjs in a child process, temporary data folder):
// user and member administration, usage errors, and `serve` / `start` with their start-up messages.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../main/config.ts';
import { openCore, type Core } from '../main/core.ts';
import { electronBinary } from '../main/cli.ts';
import { Client, tempDir } from './helpers/testServer.ts';
import { killAllFolios, runFolio, startFolio } from './helpers/processes.ts';

afterEach(killAllFolios);

/** Opens the folder's core beside the CLI (no instance lock, as the CLI's admin commands do). */
async function withCore<T>(dataDir: string, fn: (core: Core) => Promise<T>): Promise<T> {
  const core = await openCore(loadConfig({}, { dataDir, port: 0 }), { lock: false });
  try {
    return await fn(core);
  } finally {
    await core.close();
  }
}

describe('folio user', () => {
  it('links, lists and unlinks the single sign-on identities of an account', async () => {
    const dataDir = tempDir();
    const folio = (...args: string[]) => runFolio(args, { dataDir });
    expect((await folio('user', 'add', 'eve@test.local', '--password', 'eve-password-1')).code).toBe(0);
    const linked = await folio('user', 'sso-link', 'eve@test.local', 'eve-sub-1', '--issuer', 'https://id.example.org');
    expect(linked.stderr).toBe('');
    expect(linked.stdout).toBe('The identity eve-sub-1 at https://id.example.org now signs in to eve@test.local\n');
    const listed = await folio('user', 'sso', 'eve@test.local');
    expect(listed.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(0, 4))).toEqual([['https://id.example.org', 'eve-sub-1', '', 'vouched']]);
    // Without --issuer nor FOLIO_OIDC_ISSUER it says what is missing; an unknown link is a clear error.
    const noIssuer = await folio('user', 'sso-link', 'eve@test.local', 'eve-sub-2');
    expect(noIssuer.code).not.toBe(0);
    expect(noIssuer.stderr).toContain('--issuer');
    const unknown = await folio('user', 'sso-unlink', 'eve@test.local', 'nobody', '--issuer', 'https://id.example.org');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('does not sign in to eve@test.local');
    const unlinked = await folio('user', 'sso-unlink', 'eve@test.local', 'eve-sub-1', '--issuer', 'https://id.example.org');
    expect(unlinked.code).toBe(0);
    expect((await folio('user', 'sso', 'eve@test.local')).stdout).toBe('');
  }, 180_000);

  it('adds, lists, re-passwords and removes accounts', async () => {
    const dataDir = tempDir();
    const folio = (...args: string[]) => runFolio(args, { dataDir });

    const added = await folio('user', 'add', 'ann@test.local', '--password', 'ann-password-1', '--name', 'Ann');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Created user ann@test\.local \(id \d+\)\n$/);

    // Without --password a password is generated and printed once.
    const generated = await folio('user', 'add', 'bob@test.local', '--admin');
    expect(generated.code).toBe(0);
    const bobPassword = /with password (\S+)/.exec(generated.stdout)?.[1];
    expect(bobPassword).toBeDefined();

    const listed = await folio('user', 'list');
    expect(listed.code).toBe(0);
    // An account without a name ends its line with a tab: split lines, do not trim them.
    const rows = listed.stdout.split('\n').filter(Boolean).map((l) => l.split('\t'));
    expect(rows.map(([, email, role, name]) => [email, role, name])).toEqual([
      ['ann@test.local', 'user', 'Ann'],
      ['bob@test.local', 'admin', ''],
    ]);

    const changed = await folio('user', 'password', 'ann@test.local', '--password', 'ann-password-2');
    expect(changed.code).toBe(0);
    expect(changed.stdout).toContain('Changed the password of ann@test.local');
    await withCore(dataDir, async (core) => {
      expect(await core.services.auth.checkCredentials('ann@test.local', 'ann-password-2')).toMatchObject({ email: 'ann@test.local' });
      expect(await core.services.auth.checkCredentials('ann@test.local', 'ann-password-1')).toBeUndefined();
      expect(await core.services.auth.checkCredentials('bob@test.local', bobPassword!)).toMatchObject({ is_admin: true });
    });

    const removed = await folio('user', 'remove', 'bob@test.local');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Removed user bob@test.local');
    expect((await folio('user', 'list')).stdout).not.toContain('bob@test.local');
  });

  it('refuses bad input with a message and a non-zero exit', async () => {
    const dataDir = tempDir();
    const folio = (...args: string[]) => runFolio(args, { dataDir });
    expect((await folio('user', 'add', 'dup@test.local', '--password', 'dup-password-1')).code).toBe(0);

    const checks: Promise<[string, number | null, string, string]>[] = [];
    for (const [args, message] of [
      [['user', 'add', 'dup@test.local', '--password', 'dup-password-2'], 'A user with the email dup@test.local already exists.'],
      [['user', 'add', 'not-an-email', '--password', 'some-password-1'], '"not-an-email" is not a valid email address.'],
      [['user', 'add', 'short@test.local', '--password', 'short'], 'The password must have at least 8 characters.'],
      [['user', 'add'], 'Missing email.'],
      [['user', 'remove', 'nobody@test.local'], 'No user with the email nobody@test.local.'],
      [['user', 'password', 'dup@test.local'], 'Missing --password.'],
      [['user', 'frobnicate'], 'Unknown command "user frobnicate"'],
    ] as const) {
      checks.push(folio(...args).then((r) => [args.join(' '), r.code, r.stderr, message]));
    }
    // Independent refusals run side by side (each is a whole process start); then each is checked.
    for (const [what, code, stderr, message] of await Promise.all(checks)) {
      expect(code, what).toBe(1);
      expect(stderr, what).toContain(message);
    }
  });
});

describe('folio member', () => {
  it('adds, lists and removes the members of a project made through the service', async () => {
    const dataDir = tempDir();
    // Generous bounds: a dozen process starts, on a machine that may be shared.
    const folio = (...args: string[]) => runFolio(args, { dataDir, timeoutMs: 60_000 });
    const projectId = await withCore(dataDir, async (core) => {
      const owner = await core.services.users.create('owner@test.local', 'owner-password-1');
      await core.services.users.create('helper@test.local', 'helper-password-1');
      return (await core.services.projects.create(owner, { name: 'Invoices' })).id;
    });
    const pid = String(projectId);

    const added = await folio('member', 'add', pid, 'helper@test.local');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`Added helper@test.local to project ${pid}`);

    const listed = await folio('member', 'list', pid);
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n').map((l) => l.split('\t').slice(1))).toEqual([
      ['owner@test.local', 'owner'],
      ['helper@test.local', 'member'],
    ]);

    const removed = await folio('member', 'remove', pid, 'helper@test.local');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Removed helper@test.local from project ${pid}`);
    expect((await folio('member', 'list', pid)).stdout).not.toContain('helper@test.local');

    // Roles: --owner adds an owner; `member role` changes one; the last owner stays.
    const asOwner = await folio('member', 'add', pid, 'helper@test.local', '--owner');
    expect(asOwner.stdout).toContain(`Added helper@test.local to project ${pid} as owner`);
    const demoted = await folio('member', 'role', pid, 'owner@test.local', 'member');
    expect(demoted.code).toBe(0);
    expect(demoted.stdout).toContain(`owner@test.local is now a member of project ${pid}`);
    expect((await folio('member', 'list', pid)).stdout.trim().split('\n').map((l) => l.split('\t').slice(1))).toEqual([
      ['owner@test.local', 'member'],
      ['helper@test.local', 'owner'],
    ]);

    const checks: [readonly string[], string][] = [];
    for (const [args, message] of [
      [['member', 'add', '999', 'helper@test.local'], 'No project with id 999.'],
      [['member', 'add', pid, 'nobody@test.local'], 'No user with the email nobody@test.local.'],
      [['member', 'remove', pid, 'nobody@test.local'], `nobody@test.local is not a member of project ${pid}.`],
      [['member', 'remove', pid, 'helper@test.local'], 'A project keeps at least one owner'],
      [['member', 'role', pid, 'helper@test.local', 'member'], 'A project keeps at least one owner'],
      [['member', 'role', pid, 'helper@test.local', 'boss'], 'The role is "owner" or "member", got "boss".'],
      [['member', 'role', pid, 'helper@test.local'], 'Missing role (owner or member).'],
      [['member', 'add', pid, 'owner@test.local', '--owner'], `owner@test.local is already a member of project ${pid} as member`],
      [['user', 'remove', 'helper@test.local'], `helper@test.local is the only owner of project ${pid} (Invoices)`],
      [['member', 'list', 'abc'], 'The project id must be a number, got "abc".'],
      [['member', 'list'], 'Missing project id.'],
      [['member', 'add', pid], 'Missing email.'],
    ] as const) {
      checks.push([args, message]);
    }
    // Independent refusals run four at a time (each is a whole process start); then each is checked.
    const results: [string, number | null, string, string][] = [];
    for (let i = 0; i < checks.length; i += 4) {
      results.push(...(await Promise.all(checks.slice(i, i + 4).map(([args, message]) => folio(...args).then((r) => [args.join(' '), r.code, r.stderr, message] as [string, number | null, string, string])))));
    }
    for (const [what, code, stderr, message] of results) {
      expect(code, what).toBe(1);
      expect(stderr, what).toContain(message);
    }
    // Many whole process starts, several one after another: more than the default 30 s on a busy machine.
  }, 240_000);
});

describe('usage', () => {
  it('prints the usage for --help, and refuses unknown commands and options', async () => {
    const dataDir = tempDir();
    const help = await runFolio(['--help'], { dataDir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: folio <command> [options]');

    const none = await runFolio([], { dataDir });
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('Usage: folio');

    const unknown = await runFolio(['frobnicate'], { dataDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');

    const option = await runFolio(['serve', '--bogus'], { dataDir });
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/Unknown option '--bogus'/);
  });

  it('refuses a bad port from the flag or the environment before starting anything', async () => {
    const dataDir = tempDir();
    const flag = await runFolio(['serve', '--port', 'eighty'], { dataDir });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--port must be 0 to 65535, got "eighty"');

    const env = await runFolio(['serve'], { dataDir, env: { FOLIO_PORT: '70000' } });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain('FOLIO_PORT must be an integer from 0 to 65535, got "70000"');
  });
});

describe('folio serve', () => {
  it('prints its URL and, on the first run only, the generated administrator credentials', async () => {
    const dataDir = tempDir();
    const first = await startFolio({ dataDir });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.stdout()).toContain(`(data folder: ${dataDir})`);
    const creds = /email:\s+(\S+)\n\s+password:\s+(\S+)\n/.exec(await first.waitFor(/Keep this password; it is not shown again\./));
    expect(creds, first.stdout()).not.toBeNull();
    const [, email, password] = creds!;
    expect(email).toBe('admin@folio.local');

    const client = new Client(first.url);
    await client.login(email, password);
    expect((await client.get('/api/v3/auth/me/')).body).toMatchObject({ email, is_admin: true });

    expect(await first.stop()).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toContain('SIGTERM: shutting down');

    const second = await startFolio({ dataDir });
    expect(second.stdout()).not.toContain('First run');
    await new Client(second.url).login(email, password);
    await second.stop();
  });

  it('uses FOLIO_ADMIN_EMAIL and FOLIO_ADMIN_PASSWORD for the first administrator', async () => {
    const dataDir = tempDir();
    const admin = { FOLIO_ADMIN_EMAIL: 'chief@test.local', FOLIO_ADMIN_PASSWORD: 'chief-password-1' };
    const p = await startFolio({ dataDir, env: admin });
    expect(await p.waitFor(/FOLIO_ADMIN_PASSWORD\)\./)).toContain('First run: created the administrator account chief@test.local (password from FOLIO_ADMIN_PASSWORD).');
    expect(p.stdout()).not.toContain('chief-password-1');
    const client = new Client(p.url);
    await client.login(admin.FOLIO_ADMIN_EMAIL, admin.FOLIO_ADMIN_PASSWORD);
    expect((await client.get('/api/v3/auth/me/')).body).toMatchObject({ email: 'chief@test.local', is_admin: true });
  });

  it('refuses a second instance on the same data folder, naming the one that runs', async () => {
    const dataDir = tempDir();
    const first = await startFolio({ dataDir });
    const second = await runFolio(['serve'], { dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Another Folio is already using the data folder ${dataDir}`);
    expect(second.stderr).toContain(`process ${first.child.pid}, serving ${first.url}`);
    // The first one is unharmed.
    expect((await new Client(first.url).get('/api/v3/auth/me/')).status).toBe(401);
  });

  it('says clearly when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const r = await runFolio(['serve'], { dataDir: tempDir(), env: { FOLIO_PORT: String(port) } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use. Set FOLIO_PORT to a free port (0 picks one).`);
    } finally {
      blocker.close();
    }
  });

  it('warns when FOLIO_HOST is not a loopback address', async () => {
    const p = await startFolio({ dataDir: tempDir(), env: { FOLIO_HOST: '0.0.0.0' } });
    expect(await p.waitFor(/WARNING/, 'stderr')).toContain('WARNING: listening on 0.0.0.0, not on loopback: other machines can reach this API.');
    expect(p.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(await p.stop()).toEqual({ code: 0, signal: null });
  });

  it('does not warn on loopback', async () => {
    const p = await startFolio({ dataDir: tempDir() });
    await p.stop();
    expect(p.stderr()).not.toContain('WARNING');
  });
});

// The electron package is a dev dependency; what `start` needs is its binary, which these machines lack.
const electronInstalled = electronBinary() !== undefined;

describe.skipIf(electronInstalled)('folio start without Electron', () => {
  it('says it runs headless, then serves like `folio serve`', async () => {
    const p = await startFolio({ dataDir: tempDir(), args: ['start'] });
    const lines = p.stdout().split('\n');
    expect(lines[0]).toBe('Electron is not installed on this machine, so Folio runs headless: open the URL below in a browser.');
    expect(lines[1]).toMatch(/^Folio is running at http:\/\/127\.0\.0\.1:\d+\/ /);
    const r = await new Client(p.url).post('/api/v3/auth/', { username: 'admin@folio.local', password: 'wrong' });
    expect(r.status).toBe(400);
    expect(await p.stop()).toEqual({ code: 0, signal: null });
  });
});

// The `folio` command line: run the server headless, start the desktop app, manage users and members.
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ConfigError, isLoopback, loadConfig, type Config } from './config.ts';
import { openCore, type Core } from './core.ts';
import { startServer, PortInUseError } from './server.ts';
import { InstanceLockedError } from './instanceLock.ts';
import { HttpError, NotFoundError, ValidationError } from './domain/errors.ts';
import { appRoot } from './paths.ts';
import { NewerDatabaseError } from './store/db.ts';
import { storageFault } from './store/errors.ts';
import { BackupError, createBackup, restoreBackup } from './backup/backup.ts';
import { exportToTeam, ExportRefused } from './team/exportToTeam.ts';

const USAGE = `Usage: folio <command> [options]

Commands:
  serve                       run Folio headless: the REST API and the renderer at http://127.0.0.1:<port>/,
                              and the workers that process uploads (OCR) and train AIs
  serve --no-workers          a team server's API process: no workers (needs FOLIO_DATABASE_URL)
  worker                      a team server's worker process: processing, OCR and training, no HTTP
                              (needs FOLIO_DATABASE_URL; run any number, on any machines)
  start                       open the desktop window (falls back to serve where Electron is not installed)
  user add <email> [--password P] [--admin] [--name N]
  user list
  user remove <email>
  user password <email> --password P
  user sso <email>            the single sign-on identities of the account: issuer, subject, last email, last sign-in
  user sso-link <email> <subject> [--issuer URL]
                              lets the provider's identity <subject> (its sub claim) sign in to this account
                              (--issuer defaults to FOLIO_OIDC_ISSUER)
  user sso-unlink <email> <subject> [--issuer URL]
  member add <project-id> <email> [--owner]
  member role <project-id> <email> owner|member
  member remove <project-id> <email>
  member list <project-id>    user id, email, role (owner or member)
  backup <file>               write a backup of the data folder to <file> (a tar), also while Folio runs
  restore <file>              restore a backup into the data folder, which must be empty or new
  import-project <folder> [--owner-email EMAIL] [--name N]
                              import a project folder as the SDK writes it (docs/project-folders.md) as a
                              new project owned by EMAIL (default: the first administrator)
  export-project <project-id> <folder>
                              write the project as a project folder (a new or empty folder)
  export-to-team              move the data folder (SQLite and files) into the team server named by
                              FOLIO_DATABASE_URL and FOLIO_S3_*: a new, empty one (README "Team server")

Options:
  --data-dir DIR   data folder (env FOLIO_DATA_DIR; default: the OS's per-user data folder)
  --port N         port of the API (env FOLIO_PORT; 0 picks a free one)
  --host ADDR      address to listen on (env FOLIO_HOST; default 127.0.0.1)
`;

function configFrom(values: { 'data-dir'?: string; port?: string; host?: string }): Config {
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!/^\d+$/.test(values.port!) || port > 65535)) throw new ConfigError(`--port must be 0 to 65535, got "${values.port}"`);
  return loadConfig(process.env, { dataDir: values['data-dir'], host: values.host, port });
}

async function serve(config: Config, { workers = true } = {}): Promise<number> {
  if (!workers) teamServerOnly(config, 'serve --no-workers', 'only `folio serve` itself can run its jobs');
  if (!isLoopback(config.host)) {
    console.warn(`[folio] WARNING: listening on ${config.host}, not on loopback: other machines can reach this API. Anyone with an account's password or token can read its documents.`);
  }
  const core = await openCore(config, { workers });
  // With local passwords off a password admin could not sign in: the first administrator is then
  // FOLIO_ADMIN_EMAIL's account, or the admin group's, at its first single sign-on (main/auth/ssoAccounts.ts).
  const admin = config.localLogin ? await core.services.users.ensureAdmin(config.adminEmail, config.adminPassword) : undefined;
  let server;
  try {
    server = await startServer(core);
  } catch (err) {
    await core.close();
    throw err;
  }
  // The handlers go in before the URL is printed: a script that waits for that line and then stops
  // Folio must get a clean shutdown, not the default action of a signal nobody listens to yet.
  const stopped = stopOnSignal(async () => {
    await server.close();
    await core.close();
  });
  core.startImports();
  console.log(`Folio is running at ${server.url}/ (data folder: ${config.dataDir})${workers ? '' : '; API only: jobs run in `folio worker` processes'}`);
  if (config.oidc) console.log(`Single sign-on: ${config.oidc.name} (${config.oidc.issuer})${config.localLogin ? '' : '; local passwords are off'}`);
  if (admin) {
    console.log(
      admin.generated
        ? `First run: created the administrator account\n  email:    ${admin.email}\n  password: ${admin.password}\nKeep this password; it is not shown again.`
        : `First run: created the administrator account ${admin.email} (password from FOLIO_ADMIN_PASSWORD).`,
    );
  }
  await stopped;
  return 0;
}

/** `folio worker`: a team server's processing, OCR and training, taking jobs from the shared database; no HTTP. */
async function worker(config: Config): Promise<number> {
  teamServerOnly(config, 'worker', '`folio serve` runs the workers of its data folder itself');
  const core = await openCore(config, { workers: true });
  const stopped = stopOnSignal(() => core.close());
  console.log(`Folio worker is running: processing, OCR and training jobs of the team server's database (data folder: ${config.dataDir})`);
  await stopped;
  return 0;
}

/**
 * Resolves once SIGINT or SIGTERM came and `stop` finished. Listen before the start-up line is printed: a
 * script that waits for that line and then stops Folio must get a clean shutdown, not the signal's default.
 */
function stopOnSignal(stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`[folio] ${signal}: shutting down`);
      await stop();
      resolve();
    };
    process.once('SIGINT', () => void onSignal('SIGINT'));
    process.once('SIGTERM', () => void onSignal('SIGTERM'));
  });
}

/**
 * The process roles of a team server: on SQLite, one process (`folio serve`) owns the data folder. Split
 * processes have data folders of their own, so the files must be in the shared bucket for both sides to read.
 */
function teamServerOnly(config: Config, command: string, instead: string): void {
  if (!config.databaseUrl) {
    throw new ConfigError(`folio ${command} is a process of a team server, which shares a PostgreSQL database (FOLIO_DATABASE_URL is not set). With the data folder's SQLite, ${instead}.`);
  }
  if (!config.s3) {
    throw new ConfigError(`folio ${command} shares the files with the team server's other processes through object storage, which is not set (FOLIO_S3_ENDPOINT and the other FOLIO_S3_* settings): each process's data folder is its own, so a worker could not read what the API stored.`);
  }
}

/**
 * The Electron binary, when the `electron` package and its binary are installed. Read from the package's
 * path.txt rather than by require('electron'): without a binary, that require starts a download.
 */
export function electronBinary(): string | undefined {
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const bin = path.join(dir, 'dist', fs.readFileSync(path.join(dir, 'path.txt'), 'utf8').trim());
    return fs.existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

async function start(config: Config): Promise<number> {
  const bin = electronBinary();
  if (!bin) {
    console.log('Electron is not installed on this machine, so Folio runs headless: open the URL below in a browser.');
    return serve(config);
  }
  // The app reads its configuration from the environment (main/electron/main.ts): flags travel there.
  const env = { ...process.env, FOLIO_DATA_DIR: config.dataDir, FOLIO_PORT: String(config.port), FOLIO_HOST: config.host };
  const child = spawn(bin, [appRoot], { stdio: 'inherit', env });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
}

async function withCore<T>(config: Config, fn: (core: Core) => Promise<T>): Promise<T> {
  // Admin commands work beside a running server: SQLite (WAL) serialises the writes.
  const core = await openCore(config, { lock: false });
  try {
    return await fn(core);
  } finally {
    await core.close();
  }
}

/** backup and restore copy a desktop data folder; a team server's state is its database and bucket. */
function teamServerRefuses(config: Config, command: string): void {
  if (config.databaseUrl) {
    throw new ConfigError(`folio ${command} works on a desktop data folder; this is a team server (FOLIO_DATABASE_URL is set): back up PostgreSQL with pg_dump and the bucket with your object store's tools (README "Team server").`);
  }
}

function need(arg: string | undefined, what: string): string {
  if (!arg) throw new ConfigError(`Missing ${what}.\n\n${USAGE}`);
  return arg;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        admin: { type: 'boolean' },
        owner: { type: 'boolean' },
        issuer: { type: 'string' },
        'no-workers': { type: 'boolean' },
        'owner-email': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, sub, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  try {
    const config = configFrom(values);
    switch (command) {
      case 'serve':
        return await serve(config, { workers: !values['no-workers'] });
      case 'worker':
        return await worker(config);
      case 'start':
        return await start(config);
      case 'user':
        return await withCore(config, async (core) => {
          const users = core.services.users;
          if (sub === 'add') {
            const email = need(rest[0], 'email');
            const password = values.password ?? process.env.FOLIO_PASSWORD ?? (await import('node:crypto')).randomBytes(12).toString('base64url');
            const u = await users.create(email, password, { name: values.name, isAdmin: values.admin });
            console.log(`Created user ${u.email} (id ${u.id})${values.password || process.env.FOLIO_PASSWORD ? '' : ` with password ${password}`}`);
          } else if (sub === 'list') {
            for (const u of await users.list()) console.log(`${u.id}\t${u.email}\t${u.is_admin ? 'admin' : 'user'}\t${u.name}`);
          } else if (sub === 'remove') {
            await users.remove(need(rest[0], 'email'));
            console.log(`Removed user ${rest[0]}`);
          } else if (sub === 'password') {
            await users.setPassword(need(rest[0], 'email'), need(values.password, '--password'));
            console.log(`Changed the password of ${rest[0]}`);
          } else if (sub === 'sso') {
            for (const i of await users.ssoIdentities(need(rest[0], 'email'))) {
              console.log(`${i.issuer}\t${i.subject}\t${i.email ?? ''}\t${i.vouched ? 'vouched' : 'unvouched'}\t${i.last_sign_in_at}`);
            }
          } else if (sub === 'sso-link' || sub === 'sso-unlink') {
            const email = need(rest[0], 'email');
            const subject = need(rest[1], 'subject');
            const issuer = values.issuer ?? config.oidc?.issuer;
            if (!issuer) throw new ConfigError('Name the provider with --issuer URL (or set FOLIO_OIDC_ISSUER).');
            if (sub === 'sso-link') {
              await users.linkSso(email, issuer, subject);
              console.log(`The identity ${subject} at ${issuer} now signs in to ${email}`);
            } else {
              await users.unlinkSso(email, issuer, subject);
              console.log(`The identity ${subject} at ${issuer} no longer signs in to ${email}`);
            }
          } else throw new ConfigError(`Unknown command "user ${sub ?? ''}".\n\n${USAGE}`);
          return 0;
        });
      case 'member':
        return await withCore(config, async (core) => {
          const projects = core.services.projects;
          const projectId = Number(need(rest[0] !== undefined || sub === 'list' ? rest[0] : undefined, 'project id'));
          if (!Number.isInteger(projectId)) throw new ConfigError(`The project id must be a number, got "${rest[0]}".`);
          if (sub === 'add') {
            // Without --owner no role is named: adding an existing member (of either role) changes nothing.
            const m = await projects.adminAddMember(projectId, need(rest[1], 'email'), values.owner ? 'owner' : undefined);
            console.log(`Added ${m.email} to project ${projectId} as ${m.role}`);
          } else if (sub === 'role') {
            const email = need(rest[1], 'email');
            const role = need(rest[2], 'role (owner or member)');
            if (role !== 'owner' && role !== 'member') throw new ConfigError(`The role is "owner" or "member", got "${role}".`);
            const m = await projects.adminSetRole(projectId, email, role);
            console.log(`${m.email} is now ${m.role === 'owner' ? 'an owner' : 'a member'} of project ${projectId}`);
          } else if (sub === 'remove') {
            await projects.adminRemoveMember(projectId, need(rest[1], 'email'));
            console.log(`Removed ${rest[1]} from project ${projectId}`);
          } else if (sub === 'list') {
            for (const m of await projects.adminMembers(projectId)) console.log(`${m.user_id}\t${m.email}\t${m.role}`);
          } else throw new ConfigError(`Unknown command "member ${sub ?? ''}".\n\n${USAGE}`);
          return 0;
        });
      case 'backup': {
        teamServerRefuses(config, 'backup');
        // No core and no lock: the backup reads beside a running Folio, through SQLite's online backup.
        const r = await createBackup(config.dataDir, need(sub, 'backup file'));
        console.log(`Backed up ${config.dataDir} to ${r.file} (${r.blobs} files, ${r.size} bytes; data as of ${r.createdAt})`);
        return 0;
      }
      case 'restore': {
        teamServerRefuses(config, 'restore');
        const r = await restoreBackup(need(sub, 'backup file'), config.dataDir);
        console.log(`Restored the backup of ${r.createdAt} into ${r.dataDir} (${r.blobs} files)`);
        return 0;
      }
      case 'import-project':
        return await withCore(config, async (core) => {
          const folder = need(sub, 'project folder');
          const r = await core.services.projectFolders.adminImport(folder, { ownerEmail: values['owner-email'], name: values.name });
          const c = r.counts;
          console.log(`Imported ${folder} as project ${r.project.id} ("${r.project.name}")`);
          console.log(`  ${c.categories} categories, ${c.label_sets} label sets, ${c.labels} labels`);
          console.log(`  ${c.documents} documents (${c.original_files} with their own file), ${c.pages} pages, ${c.characters} character boxes, ${c.page_images} page images`);
          console.log(`  ${c.annotation_sets} annotation sets, ${c.annotations} annotations, ${c.missing_annotations} missing annotations`);
          for (const [kind, map] of Object.entries(r.ids)) {
            const pairs = Object.entries(map);
            if (pairs.length) console.log(`  ${kind.replace('_', ' ')} ids: ${pairs.slice(0, 8).map(([from, to]) => `${from}->${to}`).join(' ')}${pairs.length > 8 ? ` ... (${pairs.length})` : ''}`);
          }
          return 0;
        });
      case 'export-project':
        return await withCore(config, async (core) => {
          const projectId = Number(need(sub, 'project id'));
          if (!Number.isInteger(projectId)) throw new ConfigError(`The project id must be a number, got "${sub}".`);
          const r = await core.services.projectFolders.adminExport(projectId, need(rest[0], 'folder to export into'));
          console.log(`Exported project ${projectId} to ${r.dir}: ${r.counts.documents} documents, ${r.counts.annotations} annotations, ${r.counts.missing_annotations} missing annotations`);
          return 0;
        });
      case 'export-to-team': {
        // The desktop folder is --data-dir; the team server's own data folder only holds temporary files.
        const teamDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-export-'));
        try {
          const r = await exportToTeam(config.dataDir, { ...config, dataDir: teamDir }, (line) => console.log(line));
          const rows = Object.values(r.rows).reduce((a, b) => a + b, 0);
          console.log(`Exported ${config.dataDir}: ${rows} rows in ${Object.keys(r.rows).length} tables, ${r.files.total} files (${r.files.copied} copied) in ${r.seconds.toFixed(1)} s.`);
        } finally {
          fs.rmSync(teamDir, { recursive: true, force: true });
        }
        return 0;
      }
      default:
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof InstanceLockedError || err instanceof PortInUseError || err instanceof NotFoundError || err instanceof NewerDatabaseError || err instanceof BackupError || err instanceof ExportRefused) {
      console.error(`folio: ${err.message}`);
      return 1;
    }
    if (err instanceof ValidationError) {
      console.error(`folio: ${Object.values(err.fields).flat().join(' ')}`);
      return 1;
    }
    // A project folder that cannot be imported (400) or was imported before (409): the message says which.
    if (err instanceof HttpError && err.status < 500) {
      console.error(`folio: ${err.message}`);
      return 1;
    }
    const storage = storageProblem(err);
    if (storage) {
      console.error(`folio: ${storage}`);
      return 1;
    }
    throw err;
  }
}

/**
 * One line for a data folder (or database) Folio cannot use: read-only, without permission, full, or a
 * database that cannot be reached. Undefined for any other error, which keeps its stack trace.
 */
function storageProblem(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException;
  const where = typeof e?.path === 'string' ? ` (${e.path})` : '';
  // A data folder that cannot be made: node's recursive mkdir answers ENOENT for a read-only parent.
  if (e?.code === 'ENOENT' && e.syscall === 'mkdir' && typeof e.path === 'string') {
    let parent = path.dirname(e.path);
    while (!fs.existsSync(parent) && path.dirname(parent) !== parent) parent = path.dirname(parent);
    try {
      fs.accessSync(parent, fs.constants.W_OK);
    } catch (denied) {
      return storageProblem(denied);
    }
  }
  if (e?.code === 'EACCES' || e?.code === 'EPERM') {
    return `Folio may not write to its data folder${where}: ${e.code}. Give this user write permission there, or start with --data-dir naming a folder it may write.`;
  }
  const fault = storageFault(err);
  if (!fault) return undefined;
  if (fault.what === 'disk') {
    return `Folio cannot write to its data folder${where}: ${fault.reason}. Free space or make it writable, or start with --data-dir naming another folder.`;
  }
  return `${fault.message} Check FOLIO_DATABASE_URL and that the database server is running.`;
}

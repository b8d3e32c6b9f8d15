// The Folio core: one per data folder. Opens the store, brings the schema up to date and builds the
// services. The headless server, the CLI and the Electron shell all start from here.
// First, as a safeguard: pdf.js now loads in the PDF worker threads (which import this themselves), but
// anything that loads it on the main thread later must not replace the engine's JSON functions.
import './pipeline/nativeJson.ts';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import multer from 'multer';
import { isLoopback, type Config } from './config.ts';
import type { Store } from './store/db.ts';
import { openStoreFor } from './store/open.ts';
import type { ChangeStamp } from './store/changeStamp.ts';
import { makeRepos, unitOfWork, type Repos, type UnitOfWork } from './store/repositories/index.ts';
import type { BlobStore } from './blobs/blobStore.ts';
import { openBlobStore } from './blobs/openBlobStore.ts';
import { referencedBlobKeys } from './blobs/referenced.ts';
import { makeServices, type Services } from './services/index.ts';
import { acquireInstanceLock, type InstanceLock } from './instanceLock.ts';
import { DocumentProcessor } from './pipeline/processor.ts';
import { pipelineLimits } from './pipeline/limits.ts';
import { maxModelBytes } from './pipeline/languages.ts';
import { checkUpload } from './pipeline/uploadCheck.ts';
import { openJobQueue } from './jobs/openQueue.ts';
import type { JobWorker } from './jobs/queue.ts';
import { BackgroundJobs } from './jobs/registry.ts';
import { loadSmtpSettings, Mailer } from './events/mailer.ts';
import { documentOut } from './mappers/documents.ts';
import { TRAINERS } from './ai/trainers/index.ts';
import { callbackPolicy as makeCallbackPolicy } from './events/callbackTargets.ts';
import { ensurePrivateDir, securePermissions } from './dataPermissions.ts';
import { ImportWatcher } from './imports/importWatcher.ts';
import { logProblem } from './log.ts';

export interface Core {
  config: Config;
  store: Store;
  /** Moves with every write to the store (the store itself today; changeStamp.ts): the response cache's freshness. */
  changes: ChangeStamp;
  repos: Repos;
  uow: UnitOfWork;
  blobs: BlobStore;
  services: Services;
  /** Multer configured for uploads into the blob store's temporary folder. */
  upload: multer.Multer;
  lock?: InstanceLock;
  /** Document processing: stop() ends its worker (main/jobs/registry.ts), then the OCR workers. */
  processor: Pick<DocumentProcessor, 'ocrEngineInfo'> & { stop(): Promise<void> };
  /** Runs AI trainings, apart from document processing so that neither waits for the other. */
  training: JobWorker;
  mailer: Mailer;
  /**
   * Polls the import folders (main/imports/importWatcher.ts). Not started by openCore: `folio serve` and
   * the desktop app start it once they listen (tests only when they ask); close() stops it.
   */
  imports: ImportWatcher;
  /** Starts the import watcher, in the instance that holds the data folder's lock only. */
  startImports(): void;
  /** Where this instance's API answers (links in emails); set once the server listens. */
  setPublicUrl(url: string): void;
  close(): Promise<void>;
}

/**
 * The instance secret (keys API tokens); made once per data folder and kept outside the database. A team
 * server's processes share theirs through PostgreSQL instead (store.sharedSecret).
 */
function loadSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  try {
    const s = fs.readFileSync(file);
    if (s.length >= 32) return s;
  } catch {
    /* first run */
  }
  const s = randomBytes(32);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, s, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return s;
}

/**
 * Removes blobs no document refers to: left behind when a crash fell between storing an upload and
 * committing its row (or between deleting a row and its file).
 */
async function sweepUnreferencedBlobs(blobs: BlobStore, repos: Repos): Promise<void> {
  const used = await referencedBlobKeys(repos);
  for (const key of await blobs.keys()) if (!used.has(key)) await blobs.remove(key);
}

export interface OpenCoreOptions {
  /** Take the one-instance-per-folder lock (the server and the desktop app do; CLI admin commands too). */
  lock?: boolean;
  /**
   * Run the job workers (processing, OCR, training): by default the instance that holds the lock does. A team
   * server's API-only process (`folio serve --no-workers`) does not; `folio worker` is all workers.
   */
  workers?: boolean;
}

export async function openCore(config: Config, opts: OpenCoreOptions = { lock: true }): Promise<Core> {
  ensurePrivateDir(config.dataDir);
  const lock = opts.lock === false ? undefined : acquireInstanceLock(config.dataDir);
  try {
    // Other users of this machine read nothing here: corrects installs from before and whatever was
    // copied in since, before the store's files are opened.
    securePermissions(config.dataDir);
    const store = await openStoreFor(config);
    const repos = makeRepos(store.db);
    const uow = unitOfWork(store.db);
    const blobs = await openBlobStore(config);
    // Only the instance that holds the lock owns the temporary files and the blob store's contents;
    // a CLI command beside a running server must not touch its uploads in progress.
    if (lock) {
      await blobs.clearTemp();
      await sweepUnreferencedBlobs(blobs, repos);
    }
    const secret = (await store.sharedSecret()) ?? loadSecret(config.dataDir);
    // Listening on loopback only, the uploaders are on this machine and their receivers are local scripts.
    const callbackPolicy = makeCallbackPolicy({ listensOnLoopback: isLoopback(config.host), allow: config.callbackAllow });
    const log = (message: string, error?: unknown) => logProblem(`[folio] ${message}`, error);
    // The queue first: services send their jobs through it; the handlers, which use the services, after them.
    // SQLite's in the data folder, or pg-boss on the team server's PostgreSQL (main/jobs/openQueue.ts).
    const queue = await openJobQueue({ store, databaseUrl: config.databaseUrl, repos, uow, log });
    const jobs = new BackgroundJobs(queue, repos, config.syncTimeoutMs);
    const limits = pipelineLimits();
    maxModelBytes(); // FOLIO_MAX_MODEL_MB: a nonsense value stops start-up rather than an administrator's upload
    const pipeline = {
      check: async (file: string) => void (await checkUpload(await fs.promises.readFile(file), limits)),
      waitUntilProcessed: (id: number) => jobs.waitUntilProcessed(id),
    };
    const signIn = { oidc: config.oidc, localLogin: config.localLogin, adminEmail: config.adminEmail };
    const services = makeServices({ repos, uow, blobs, secret, queue, pipeline, dataDir: config.dataDir, importRoots: config.importRoots, trainers: TRAINERS, loginLimits: config.loginLimits, callbackPolicy, signIn, learningDelayMs: config.learningDelayMs });
    const mailer = new Mailer(repos.events, loadSmtpSettings(process.env));
    let publicUrl = `http://${config.host}:${config.port}`;
    const processor = new DocumentProcessor({ repos, blobs, dataDir: config.dataDir, limits });
    services.readAgain.attach({ ocr: () => processor.ocr() });
    const documentJson = async (id: number) => documentOut(await services.documents.detailById(id));
    const workers = jobs.register({ repos, uow, blobs, queue, services, processor, mailer, trainers: TRAINERS, callbackPolicy, documentJson, baseUrl: () => publicUrl }, log);
    const training = workers.training;
    const processing = {
      async stop() {
        // OCR and analysis first (the analysis may send a callback), then the deliveries under way.
        await Promise.all([workers.documents.stop({ timeoutMs: 10_000 }), workers.analysis.stop({ timeoutMs: 10_000 })]);
        await workers.delivery.stop({ timeoutMs: 10_000 });
        await processor.close();
      },
      ocrEngineInfo: () => processor.ocrEngineInfo(),
    };
    // Only the instance that owns the data folder runs jobs (CLI commands beside it do not), unless told.
    if (lock && (opts.workers ?? true)) {
      await workers.documents.start();
      await workers.analysis.start();
      await workers.delivery.start();
      await training.start();
    }
    const imports = new ImportWatcher({ repos, documents: services.documents, blobs, pollMs: config.importPollMs, maxUploadBytes: config.maxUploadBytes, roots: config.importRoots });
    const upload = multer({
      storage: multer.diskStorage({
        destination: blobs.tmpDir,
        filename: (req, _file, cb) => {
          const file = blobs.tempPath('.upload');
          // Named on the request: a write cut short (a full disk) leaves a partial file the HTTP layer removes.
          ((req as { uploadTemps?: string[] }).uploadTemps ??= []).push(file);
          cb(null, path.basename(file));
        },
      }),
      limits: { fileSize: config.maxUploadBytes, files: 1, fields: 100, fieldSize: config.maxBodyBytes },
      // Browsers and HTTP clients send file names as UTF-8; multer's default is latin1.
      defParamCharset: 'utf8',
    });
    return {
      config,
      store,
      changes: store,
      repos,
      uow,
      blobs,
      services,
      upload,
      lock,
      processor: processing,
      training,
      mailer,
      imports,
      startImports() {
        if (lock) imports.start();
      },
      setPublicUrl(url) {
        publicUrl = url;
      },
      async close() {
        // First: an import under way finishes its upload, whose processing job the processor then keeps.
        await imports.stop();
        await training.stop({ timeoutMs: 10_000 });
        await processing.stop();
        await mailer.close();
        await queue.close();
        await store.close();
        lock?.release();
      },
    };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

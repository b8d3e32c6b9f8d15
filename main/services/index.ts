// Builds every service from the repositories: the one layer the HTTP routes, the CLI and Electron's
// IPC handlers call.
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { AuthService } from './authService.ts';
import { UserService } from './userService.ts';
import { ProjectService } from './projectService.ts';
import { DocumentService, type DocumentPipelineHook } from './documentService.ts';
import { AnnotationService } from './annotationService.ts';
import { TaxonomyService } from './taxonomyService.ts';
import { EventService } from './eventService.ts';
import { GeometryService } from './geometryService.ts';
import { ExportService } from './exportService.ts';
import { SegmentationService } from './segmentationService.ts';
import { AiModelService } from './aiModelService.ts';
import { PostprocessService } from './postprocessService.ts';
import { ReadAgainService } from './readAgainService.ts';
import { ImportFolderService } from './importFolderService.ts';
import { ProjectFolderService } from './projectFolderService.ts';
import type { AiKind } from '../store/schema.ts';
import type { Trainer } from '../ai/trainers/types.ts';
import type { LoginLimits } from './loginThrottle.ts';
import { callbackUrlProblem } from '../events/callbacks.ts';
import type { CallbackPolicy } from '../events/callbackTargets.ts';
import type { OidcConfig } from '../config.ts';
import { SingleSignOn } from '../auth/singleSignOn.ts';

export interface ServiceDeps {
  repos: Repos;
  uow: UnitOfWork;
  blobs: BlobStore;
  secret: Buffer;
  dataDir: string;
  /** Where import folders may be (Config.importRoots); none turns them off. */
  importRoots?: string[];
  /** The job queue (main/jobs/queue.ts): services send their jobs (main/jobs/kinds.ts) in their own transactions. */
  queue: JobQueue;
  /** The upload check and the wait of a sync upload (core.ts); without it, neither. */
  pipeline?: DocumentPipelineHook;
  /** The trainers of the AI kinds (main/ai/trainers). */
  trainers: Partial<Record<AiKind, Trainer>>;
  /** Failed-login limits (Config.loginLimits); the defaults of loginThrottle.ts without. */
  loginLimits?: LoginLimits;
  /** Where completion callbacks may go (events/callbackTargets.ts): uploads naming a refused address get a 400. */
  callbackPolicy?: CallbackPolicy;
  /** Sign-in besides passwords (Config.oidc, .localLogin, .adminEmail): single sign-on through main/auth/ when `oidc` is set. */
  signIn?: { oidc?: OidcConfig; localLogin: boolean; adminEmail?: string };
  /** Continuous learning's wait after a finished review (Config.learningDelayMs; docs/continuous-learning.md). */
  learningDelayMs?: number;
}

export function makeServices(deps: ServiceDeps) {
  const { repos, uow, secret, queue } = deps;
  const projects = new ProjectService(repos, uow, deps.dataDir);
  const annotations = new AnnotationService(repos, uow);
  const { callbackPolicy } = deps;
  const readAgain = new ReadAgainService(repos, uow, deps.blobs, annotations, deps.dataDir, queue);
  const documents = new DocumentService(repos, uow, deps.blobs, annotations, queue, deps.pipeline, callbackPolicy && ((url) => callbackUrlProblem(url, callbackPolicy)), deps.learningDelayMs);
  const { signIn } = deps;
  const passwordsOffFor = signIn?.oidc && !signIn.localLogin ? signIn.oidc.name : undefined;
  const auth = new AuthService(repos, secret, { limits: deps.loginLimits, passwordsOffFor });
  return {
    auth,
    /** Single sign-on through an OpenID Connect provider; undefined when none is set up. */
    sso: signIn?.oidc ? new SingleSignOn(signIn.oidc, uow, auth, secret, signIn.adminEmail) : undefined,
    users: new UserService(repos, uow),
    projects,
    documents,
    geometry: new GeometryService(repos, deps.blobs),
    exports: new ExportService(repos),
    segmentation: new SegmentationService(repos, deps.blobs),
    annotations,
    taxonomy: new TaxonomyService(repos, uow),
    events: new EventService(repos),
    postprocess: new PostprocessService(repos, uow, deps.blobs, documents, readAgain, annotations, queue),
    readAgain,
    aiModels: new AiModelService(repos, uow, deps.blobs, deps.trainers, queue),
    importFolders: new ImportFolderService(repos, deps.dataDir, deps.importRoots ?? []),
    projectFolders: new ProjectFolderService(repos, uow, deps.blobs),
  };
}

export type Services = ReturnType<typeof makeServices>;

// All repositories, bound either to the database or to one transaction (the unit of work).
import type { Db } from '../db.ts';
import { isPostgres } from '../dialect.ts';
import { UserRepository } from './userRepository.ts';
import { ProjectRepository } from './projectRepository.ts';
import { DocumentRepository } from './documentRepository.ts';
import { AnnotationRepository } from './annotationRepository.ts';
import { CategoryRepository } from './categoryRepository.ts';
import { LabelRepository } from './labelRepository.ts';
import { LabelSetRepository } from './labelSetRepository.ts';
import { PageRepository } from './pageRepository.ts';
import { EventRepository } from './eventRepository.ts';
import { JobRepository } from './jobRepository.ts';
import { AiModelRepository } from './aiModelRepository.ts';
import { ImportFolderRepository } from './importFolderRepository.ts';
import { ProjectImportRepository } from './projectImportRepository.ts';

export interface Repos {
  users: UserRepository;
  projects: ProjectRepository;
  documents: DocumentRepository;
  annotations: AnnotationRepository;
  categories: CategoryRepository;
  labels: LabelRepository;
  labelSets: LabelSetRepository;
  pages: PageRepository;
  events: EventRepository;
  jobs: JobRepository;
  aiModels: AiModelRepository;
  importFolders: ImportFolderRepository;
  projectImports: ProjectImportRepository;
}

export function makeRepos(db: Db): Repos {
  return {
    users: new UserRepository(db),
    projects: new ProjectRepository(db),
    documents: new DocumentRepository(db),
    annotations: new AnnotationRepository(db),
    categories: new CategoryRepository(db),
    labels: new LabelRepository(db),
    labelSets: new LabelSetRepository(db),
    pages: new PageRepository(db),
    events: new EventRepository(db),
    jobs: new JobRepository(db),
    aiModels: new AiModelRepository(db),
    importFolders: new ImportFolderRepository(db),
    projectImports: new ProjectImportRepository(db),
  };
}

/** Runs `fn` in one transaction: every write it makes lands together or not at all. */
export type UnitOfWork = <T>(fn: (repos: Repos) => Promise<T>) => Promise<T>;

/**
 * SQLite runs one transaction at a time (kysely's driver holds its one connection for the whole
 * transaction), so a unit of work never sees another's writes half-way: the services' read-check-write
 * rules (a document split once, a name free) rely on it. PostgreSQL runs them side by side; SERIALIZABLE
 * isolation keeps that promise there, by failing one of two transactions that could not have run one after
 * the other (SQLSTATE 40001, or a deadlock, 40P01), which is then run again from its start, as it would
 * have run after the other one on SQLite.
 */
export function unitOfWork(db: Db): UnitOfWork {
  if (!isPostgres(db)) return (fn) => db.transaction().execute((trx) => fn(makeRepos(trx)));
  return async (fn) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().setIsolationLevel('serializable').execute((trx) => fn(makeRepos(trx)));
      } catch (err) {
        if (attempt >= SERIALIZATION_RETRIES || !isSerializationFailure(err)) throw err;
        // Apart a little, at random, so that the two do not collide again at once.
        await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    }
  };
}

const SERIALIZATION_RETRIES = 8;

function isSerializationFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

// All repositories, bound either to the database or to one transaction (the unit of work).
import type { Db } from '../db.ts';
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
  };
}

/** Runs `fn` in one SQLite transaction: every write it makes lands together or not at all. */
export type UnitOfWork = <T>(fn: (repos: Repos) => Promise<T>) => Promise<T>;

export function unitOfWork(db: Db): UnitOfWork {
  return (fn) => db.transaction().execute((trx) => fn(makeRepos(trx)));
}

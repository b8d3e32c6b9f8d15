// The ordered list of schema migrations. Append only: a released migration is never edited.
import type { Kysely } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_public_documents.ts';
import * as m0003 from './0003_jobs.ts';
import * as m0004 from './0004_events.ts';
import * as m0005 from './0005_pages.ts';
import * as m0006 from './0006_ai_models.ts';
import * as m0007 from './0007_typed_annotations.ts';
import * as m0008 from './0008_job_interruptions.ts';
import * as m0009 from './0009_page_ocr_record.ts';
import * as m0010 from './0010_document_text_search.ts';
import * as m0011 from './0011_import_folders.ts';
import * as m0012 from './0012_job_lanes.ts';
import * as m0013 from './0013_sso_identities.ts';
import * as m0014 from './0014_upload_keys.ts';
import * as m0015 from './0015_public_links.ts';
import * as m0016 from './0016_project_imports.ts';
import * as m0018 from './0018_continuous_learning.ts';

export interface Migration {
  name: string;
  up(db: Kysely<any>): Promise<void>;
  down(db: Kysely<any>): Promise<void>;
}

export const migrations: Migration[] = [
  { name: '0001_initial', ...m0001 },
  { name: '0002_public_documents', ...m0002 },
  { name: '0003_jobs', ...m0003 },
  { name: '0004_events', ...m0004 },
  { name: '0005_pages', ...m0005 },
  { name: '0006_ai_models', ...m0006 },
  { name: '0007_typed_annotations', ...m0007 },
  { name: '0008_job_interruptions', ...m0008 },
  { name: '0009_page_ocr_record', ...m0009 },
  { name: '0010_document_text_search', ...m0010 },
  { name: '0011_import_folders', ...m0011 },
  { name: '0012_job_lanes', ...m0012 },
  { name: '0013_sso_identities', ...m0013 },
  { name: '0014_upload_keys', ...m0014 },
  { name: '0015_public_links', ...m0015 },
  { name: '0016_project_imports', ...m0016 },
  { name: '0018_continuous_learning', ...m0018 },
];

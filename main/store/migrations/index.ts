// The ordered list of schema migrations. Append only: a released migration is never edited.
import type { Kysely } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_public_documents.ts';

export interface Migration {
  name: string;
  up(db: Kysely<any>): Promise<void>;
  down(db: Kysely<any>): Promise<void>;
}

export const migrations: Migration[] = [
  { name: '0001_initial', ...m0001 },
  { name: '0002_public_documents', ...m0002 },
];

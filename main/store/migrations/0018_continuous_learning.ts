// Continuous learning (issue 30, item 1; docs/continuous-learning.md): a project setting that makes every
// finished review count (the document joins the training or test data, and a new extraction AI is trained
// in the background). Existing projects get false, so they keep their behaviour until an owner switches it
// on; new projects made through the API get true (projectService.ts).
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('projects').addColumn('continuous_learning', t.bool, (c) => c.notNull().defaultTo(t.flag(false))).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('continuous_learning').execute();
}

// The record of imported project folders (migration 0016): fingerprint -> project.
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type ProjectImportRow } from '../schema.ts';

const imports = codecs.projectImports;

export class ProjectImportRepository {
  constructor(private readonly db: Db) {}

  findByFingerprint(fingerprint: string): Promise<(ProjectImportRow & { project_name: string }) | undefined> {
    return this.db
      .selectFrom('project_imports')
      .innerJoin('projects', 'projects.id', 'project_imports.project_id')
      .selectAll('project_imports')
      .select('projects.name as project_name')
      .where('project_imports.fingerprint', '=', fingerprint)
      .executeTakeFirst()
      .then(imports.read);
  }

  async insert(v: { project_id: number; fingerprint: string; source: string; counts: Record<string, number>; created_by: number | null }): Promise<void> {
    await this.db.insertInto('project_imports').values(imports.write({ ...v, created_at: now() })).execute();
  }
}

// Projects and their members. Every read is scoped to the projects a user is a member of.
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import type { ProjectRow, UserRow } from '../schema.ts';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { containsFilter, intFilter, runList, type ListSpec } from '../listQuery.ts';

const listSpec: ListSpec = {
  orderable: { id: 'projects.id', name: 'projects.name', created_at: 'projects.created_at', updated_at: 'projects.updated_at' },
  filters: { id: intFilter('projects.id'), name: containsFilter('projects.name') },
  createdAtColumn: 'projects.created_at',
  idColumn: 'projects.id',
  defaultOrder: [{ field: 'id', desc: false }],
};

export interface MemberRow {
  user_id: number;
  email: string;
  name: string;
  role: 'owner' | 'member';
  created_at: string;
}

export class ProjectRepository {
  constructor(private readonly db: Db) {}

  private visibleTo(userId: number) {
    return this.db
      .selectFrom('projects')
      .where('projects.id', 'in', (eb) => eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId));
  }

  list(userId: number, params: ListParams): Promise<Page<ProjectRow>> {
    return runList<ProjectRow>(this.visibleTo(userId).selectAll('projects'), params, listSpec, (qb) => qb.selectAll('projects'));
  }

  /** The project if the user is a member, else undefined (callers answer 404 either way). */
  findVisible(userId: number, id: number): Promise<ProjectRow | undefined> {
    return this.visibleTo(userId).selectAll('projects').where('projects.id', '=', id).executeTakeFirst();
  }

  findById(id: number): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async isMember(projectId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('project_members')
      .select('user_id')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return !!row;
  }

  async create(name: string, createdBy: number, ocrLanguages?: string[]): Promise<ProjectRow> {
    const t = now();
    const project = await this.db
      .insertInto('projects')
      .values({ name, created_by: createdBy, created_at: t, updated_at: t, ...(ocrLanguages ? { ocr_languages: JSON.stringify(ocrLanguages) } : {}) })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.db.insertInto('project_members').values({ project_id: project.id, user_id: createdBy, role: 'owner', created_at: t }).execute();
    return project;
  }

  async update(id: number, changes: { name?: string; ocrLanguages?: string[]; splittingEnabled?: boolean }): Promise<ProjectRow> {
    const { ocrLanguages, splittingEnabled, ...rest } = changes;
    return this.db
      .updateTable('projects')
      .set({
        ...rest,
        ...(ocrLanguages ? { ocr_languages: JSON.stringify(ocrLanguages) } : {}),
        ...(splittingEnabled === undefined ? {} : { splitting_enabled: splittingEnabled ? 1 : 0 }),
        updated_at: now(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('projects').where('id', '=', id).execute();
  }

  members(projectId: number): Promise<MemberRow[]> {
    return this.db
      .selectFrom('project_members')
      .innerJoin('users', 'users.id', 'project_members.user_id')
      .select(['users.id as user_id', 'users.email', 'users.name', 'project_members.role', 'project_members.created_at'])
      .where('project_members.project_id', '=', projectId)
      .orderBy('users.id')
      .execute();
  }

  /** Adds the user as a member; adding an existing member changes nothing. */
  async addMember(projectId: number, user: UserRow, role: 'owner' | 'member' = 'member'): Promise<void> {
    await this.db
      .insertInto('project_members')
      .values({ project_id: projectId, user_id: user.id, role, created_at: now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async removeMember(projectId: number, userId: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('project_members')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}

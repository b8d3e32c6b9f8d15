// Projects and their members. Reads are scoped to the projects a user is a member of, or to every
// project for an administrator (who manages them all).
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import type { ExpressionBuilder, Selectable } from 'kysely';
import { codecs, type Database, type ProjectRow, type ProjectsTable, type UserRow } from '../schema.ts';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { containsFilter, intFilter, runList, type ListSpec } from '../listQuery.ts';

const listSpec: ListSpec = {
  orderable: { id: 'projects.id', name: 'projects.name', created_at: 'projects.created_at', updated_at: 'projects.updated_at' },
  filters: { id: intFilter('projects.id'), name: containsFilter('projects.name') },
  createdAtColumn: 'projects.created_at',
  idColumn: 'projects.id',
  defaultOrder: [{ field: 'id', desc: false }],
};

const projects = codecs.projects;

export type ProjectRole = 'owner' | 'member';

export interface MemberRow {
  user_id: number;
  email: string;
  name: string;
  role: ProjectRole;
  created_at: string;
}

/** Why a membership change was not made: the user is no member, or it would leave no owner. */
export type MemberChange = 'done' | 'not-member' | 'last-owner';

export class ProjectRepository {
  constructor(private readonly db: Db) {}

  private visibleTo(userId: number) {
    return this.db
      .selectFrom('projects')
      .where('projects.id', 'in', (eb) => eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId));
  }

  /** The projects of a member; `undefined` lists every project (an administrator's view). */
  list(userId: number | undefined, params: ListParams): Promise<Page<ProjectRow>> {
    const base = userId === undefined ? this.db.selectFrom('projects') : this.visibleTo(userId);
    return runList<Selectable<ProjectsTable>>(base.selectAll('projects'), params, listSpec, (qb) => qb.selectAll('projects')).then(projects.readPage);
  }

  /** The project if the user is a member, else undefined (callers answer 404 either way). */
  findVisible(userId: number, id: number): Promise<ProjectRow | undefined> {
    return this.visibleTo(userId).selectAll('projects').where('projects.id', '=', id).executeTakeFirst().then(projects.read);
  }

  findById(id: number): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst().then(projects.read);
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

  /** The user's role in the project, or undefined when they are not a member. */
  async roleOf(projectId: number, userId: number): Promise<ProjectRole | undefined> {
    const row = await this.db
      .selectFrom('project_members')
      .select('role')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role as ProjectRole | undefined;
  }

  async create(name: string, createdBy: number, ocrLanguages?: string[]): Promise<ProjectRow> {
    const t = now();
    const project = await this.db
      .insertInto('projects')
      .values(projects.write({ name, created_by: createdBy, created_at: t, updated_at: t, ...(ocrLanguages ? { ocr_languages: ocrLanguages } : {}) }))
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.db.insertInto('project_members').values({ project_id: project.id, user_id: createdBy, role: 'owner', created_at: t }).execute();
    return projects.read(project);
  }

  async update(id: number, changes: { name?: string; ocrLanguages?: string[]; splittingEnabled?: boolean; continuousLearning?: boolean }): Promise<ProjectRow> {
    const { ocrLanguages, splittingEnabled, continuousLearning, ...rest } = changes;
    const row = await this.db
      .updateTable('projects')
      .set(
        projects.write({
          ...rest,
          ...(ocrLanguages ? { ocr_languages: ocrLanguages } : {}),
          ...(splittingEnabled === undefined ? {} : { splitting_enabled: splittingEnabled }),
          ...(continuousLearning === undefined ? {} : { continuous_learning: continuousLearning }),
          updated_at: now(),
        }),
      )
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return projects.read(row);
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

  /**
   * A condition that holds unless the row is the project's only owner. It sits in the same statement
   * as the write, so two owners removing each other at once (or the CLI beside the server) cannot
   * both pass a separate check and leave the project without an owner.
   */
  private notLastOwner(projectId: number) {
    return (eb: ExpressionBuilder<Database, 'project_members'>) =>
      eb.or([
        eb('project_members.role', '!=', 'owner'),
        eb(
          eb.selectFrom('project_members as others').select((e) => e.fn.countAll<number>().as('n')).where('others.project_id', '=', projectId).where('others.role', '=', 'owner'),
          '>',
          1,
        ),
      ]);
  }

  /** Why nothing changed for a member row that the guarded statement left alone. */
  private async whyUnchanged(projectId: number, userId: number): Promise<MemberChange> {
    return (await this.roleOf(projectId, userId)) ? 'last-owner' : 'not-member';
  }

  /** The projects whose only owner is this user (removing their account would leave them ownerless). */
  soleOwnerOf(userId: number): Promise<{ id: number; name: string }[]> {
    return this.db
      .selectFrom('projects')
      .innerJoin('project_members as mine', (j) => j.onRef('mine.project_id', '=', 'projects.id').on('mine.user_id', '=', userId).on('mine.role', '=', 'owner'))
      .select(['projects.id', 'projects.name'])
      .where((eb) =>
        eb(
          eb.selectFrom('project_members as owners').select((e) => e.fn.countAll<number>().as('n')).whereRef('owners.project_id', '=', 'projects.id').where('owners.role', '=', 'owner'),
          '=',
          1,
        ),
      )
      .orderBy('projects.id')
      .execute();
  }

  /** Removes a member, unless they are the project's last owner. */
  async removeMember(projectId: number, userId: number): Promise<MemberChange> {
    const r = await this.db
      .deleteFrom('project_members')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .where(this.notLastOwner(projectId))
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0 ? 'done' : this.whyUnchanged(projectId, userId);
  }

  /** Changes a member's role; making the last owner a member is refused ('last-owner'). */
  async setRole(projectId: number, userId: number, role: ProjectRole): Promise<MemberChange> {
    let q = this.db.updateTable('project_members').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId);
    if (role !== 'owner') q = q.where(this.notLastOwner(projectId));
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? 'done' : this.whyUnchanged(projectId, userId);
  }
}

// Projects and membership. A project exists for a user only if they are a member (else 404).
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { ProjectRow, UserRow } from '../store/schema.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';
import type { MemberRow } from '../store/repositories/projectRepository.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { describeLanguages, resolveLanguages, type OcrLanguageStatus } from '../pipeline/languages.ts';

/** What a project's create, PUT and PATCH may set besides its name. */
export interface ProjectInput {
  name?: string;
  ocr_languages?: string[];
  splitting_enabled?: boolean;
}

export class ProjectService {
  constructor(
    private readonly repos: Repos,
    private readonly uow: UnitOfWork,
    /** Where extra OCR models live (<data>/tessdata): the languages a project may ask for. */
    private readonly dataDir: string,
  ) {}

  /** Spec names or codes -> installed tesseract codes; a 400 naming each language that is not installed. */
  private ocrCodes(languages: string[] | undefined): string[] | undefined {
    return languages === undefined ? undefined : resolveLanguages(languages, this.dataDir, 'ocr_languages');
  }

  /** The OCR languages of spec 2.16 and which of them this installation can read. */
  ocrLanguages(): OcrLanguageStatus[] {
    return describeLanguages(this.dataDir);
  }

  list(user: UserRow, params: ListParams): Promise<Page<ProjectRow>> {
    return this.repos.projects.list(user.id, params);
  }

  /** The project, when `user` is a member of it; otherwise 404 (its existence is not revealed). */
  async get(user: UserRow, id: number): Promise<ProjectRow> {
    const p = await this.repos.projects.findVisible(user.id, id);
    if (!p) throw new NotFoundError('Project not found.');
    return p;
  }

  /**
   * For request bodies naming a project: a project the user cannot see is a 400 on that field,
   * worded like any unknown id.
   */
  async getForField(user: UserRow, id: number, field = 'project'): Promise<ProjectRow> {
    const p = await this.repos.projects.findVisible(user.id, id);
    if (!p) throw ValidationError.of(field, `Invalid pk "${id}" - object does not exist.`);
    return p;
  }

  async create(user: UserRow, input: ProjectInput & { name: string }): Promise<ProjectRow> {
    const codes = this.ocrCodes(input.ocr_languages);
    return this.uow(async (r) => {
      const project = await r.projects.create(input.name, user.id, codes);
      return input.splitting_enabled ? r.projects.update(project.id, { splittingEnabled: true }) : project;
    });
  }

  async update(user: UserRow, id: number, input: ProjectInput): Promise<ProjectRow> {
    await this.get(user, id);
    return this.repos.projects.update(id, { name: input.name, ocrLanguages: this.ocrCodes(input.ocr_languages), splittingEnabled: input.splitting_enabled });
  }

  async remove(user: UserRow, id: number): Promise<void> {
    await this.get(user, id);
    await this.repos.projects.remove(id);
  }

  async members(user: UserRow, id: number): Promise<MemberRow[]> {
    await this.get(user, id);
    return this.repos.projects.members(id);
  }

  async addMember(user: UserRow, id: number, email: string): Promise<MemberRow[]> {
    await this.get(user, id);
    const member = await this.repos.users.findByEmail(email);
    if (!member) throw ValidationError.of('email', `No user with the email ${email}.`);
    await this.repos.projects.addMember(id, member);
    return this.repos.projects.members(id);
  }

  /** For the CLI, which acts as the machine's administrator rather than as a project member. */
  async adminAddMember(projectId: number, email: string): Promise<MemberRow[]> {
    if (!(await this.repos.projects.findById(projectId))) throw new NotFoundError(`No project with id ${projectId}.`);
    const member = await this.repos.users.findByEmail(email);
    if (!member) throw new NotFoundError(`No user with the email ${email}.`);
    await this.repos.projects.addMember(projectId, member);
    return this.repos.projects.members(projectId);
  }

  async adminMembers(projectId: number): Promise<MemberRow[]> {
    if (!(await this.repos.projects.findById(projectId))) throw new NotFoundError(`No project with id ${projectId}.`);
    return this.repos.projects.members(projectId);
  }

  async adminRemoveMember(projectId: number, email: string): Promise<void> {
    const member = await this.repos.users.findByEmail(email);
    if (!member || !(await this.repos.projects.removeMember(projectId, member.id))) {
      throw new NotFoundError(`${email} is not a member of project ${projectId}.`);
    }
  }

  async removeMember(user: UserRow, id: number, memberId: number): Promise<void> {
    await this.get(user, id);
    const members = await this.repos.projects.members(id);
    if (!members.some((m) => m.user_id === memberId)) throw new NotFoundError('That user is not a member of this project.');
    if (members.length === 1) throw ValidationError.of('user', 'A project keeps at least one member; delete the project instead.');
    await this.repos.projects.removeMember(id, memberId);
  }
}

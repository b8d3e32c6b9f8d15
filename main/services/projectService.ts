// Projects and membership. Who may see and change a project (members, owners, administrators) is
// decided in access.ts; here: the project's settings, its members, and that it keeps at least one owner.
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { ProjectRow, UserRow } from '../store/schema.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';
import type { MemberChange, MemberRow, ProjectRole } from '../store/repositories/projectRepository.ts';
import { HttpError, NotFoundError, PermissionError, ValidationError } from '../domain/errors.ts';
import { isAdministrator, projectForField, projectForMember, projectForOwner, projectForViewer } from './access.ts';
import fs from 'node:fs';
import { checkTraineddata, describeLanguages, maxModelBytes, MIN_MODEL_BYTES, modelCode, resolveLanguages, storeTraineddata, type OcrLanguageStatus } from '../pipeline/languages.ts';
import type { UploadedFile } from './documentService.ts';

/** What a project's create, PUT and PATCH may set besides its name. */
export interface ProjectInput {
  name?: string;
  ocr_languages?: string[];
  splitting_enabled?: boolean;
  /** Finished reviews train the AI (docs/continuous-learning.md); true for a new project unless given. */
  continuous_learning?: boolean;
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

  /**
   * An administrator adds a tesseract model: named `<code>.traineddata` (or by `code`), of a sensible size,
   * a real tesseract 4+ model (checkTraineddata), stored in <data>/tessdata, where every project may name
   * it at once. A model of the same code there is replaced; one bundled or of the machine is overridden.
   */
  async addOcrModel(user: UserRow, file: UploadedFile | undefined, code?: string): Promise<OcrLanguageStatus & { version: string | null; size: number; replaced: boolean }> {
    if (!isAdministrator(user)) throw new PermissionError('Only an administrator can add OCR languages.');
    if (!file) throw ValidationError.of('file', 'No model file was submitted (multipart part "file", a <code>.traineddata file).');
    let lang: string;
    try {
      lang = modelCode(file.originalname, code);
    } catch (err) {
      throw ValidationError.of(code?.trim() ? 'code' : 'file', `${(err as Error).message}.`);
    }
    const max = maxModelBytes();
    const mb = (n: number) => `${Math.round((n / 2 ** 20) * 10) / 10} MB`;
    if (file.size > max) throw new HttpError(413, `The model file is ${mb(file.size)}; this installation accepts models of at most ${mb(max)} (FOLIO_MAX_MODEL_MB).`);
    if (file.size < MIN_MODEL_BYTES) throw ValidationError.of('file', `The file is ${file.size} bytes: too small to be a tesseract model (they are at least ${MIN_MODEL_BYTES / 1024} KB).`);
    const bytes = await fs.promises.readFile(file.path);
    let version: string | null;
    try {
      ({ version } = checkTraineddata(bytes));
    } catch (err) {
      throw ValidationError.of('file', `${file.originalname} cannot be used: ${(err as Error).message}.`);
    }
    const { replaced } = await storeTraineddata(this.dataDir, lang, bytes);
    const row = describeLanguages(this.dataDir).find((l) => l.code === lang)!;
    return { ...row, version, size: bytes.byteLength, replaced };
  }

  /**
   * Every project for an administrator, the caller's own otherwise. An administrator manages every
   * project (its settings, members, deletion) without being a member; reading its documents, taxonomy
   * and AIs still needs membership, which an administrator can give themselves (POST members).
   */
  list(user: UserRow, params: ListParams): Promise<Page<ProjectRow>> {
    return this.repos.projects.list(isAdministrator(user) ? undefined : user.id, params);
  }

  /** The project for one of its members, else 404 (access.ts projectForMember). */
  get(user: UserRow, id: number): Promise<ProjectRow> {
    return projectForMember(this.repos, user, id);
  }

  /** The project and the caller's role, for members and administrators, else 404 (access.ts projectForViewer). */
  access(user: UserRow, id: number): Promise<{ project: ProjectRow; role: ProjectRole | undefined }> {
    return projectForViewer(this.repos, user, id);
  }

  /** A project named in a request body: a 400 on that field unless the user is a member (access.ts projectForField). */
  getForField(user: UserRow, id: number, field = 'project'): Promise<ProjectRow> {
    return projectForField(this.repos, user, id, field);
  }

  async create(user: UserRow, input: ProjectInput & { name: string }): Promise<ProjectRow> {
    const codes = this.ocrCodes(input.ocr_languages);
    return this.uow(async (r) => {
      const project = await r.projects.create(input.name, user.id, codes);
      // New projects learn from their reviews unless asked not to; the column's default (false) is for
      // the projects made before the setting existed, which keep their behaviour.
      return r.projects.update(project.id, { splittingEnabled: input.splitting_enabled || undefined, continuousLearning: input.continuous_learning ?? true });
    });
  }

  async update(user: UserRow, id: number, input: ProjectInput): Promise<ProjectRow> {
    await projectForOwner(this.repos, user, id, "change the project's settings");
    return this.repos.projects.update(id, { name: input.name, ocrLanguages: this.ocrCodes(input.ocr_languages), splittingEnabled: input.splitting_enabled, continuousLearning: input.continuous_learning });
  }

  async remove(user: UserRow, id: number): Promise<void> {
    await projectForOwner(this.repos, user, id, 'delete the project');
    await this.repos.projects.remove(id);
  }

  async members(user: UserRow, id: number): Promise<MemberRow[]> {
    await projectForViewer(this.repos, user, id);
    return this.repos.projects.members(id);
  }

  /**
   * The accounts an owner (or an administrator) may add to the project: every account that is not a member
   * yet, so that members are picked from existing users instead of typed. Members get the 403 of projectForOwner.
   */
  async memberCandidates(user: UserRow, id: number): Promise<UserRow[]> {
    await projectForOwner(this.repos, user, id, 'add members');
    const members = new Set((await this.repos.projects.members(id)).map((m) => m.user_id));
    return (await this.repos.users.list()).filter((u) => !members.has(u.id));
  }

  /**
   * Adds an existing user with `role` (default member). Adding someone who is already a member with
   * the same role, or with no role named, changes nothing; naming another role is refused, so that a
   * repeated request never changes a role by surprise (PATCH does that).
   */
  async addMember(user: UserRow, id: number, email: string, role?: ProjectRole): Promise<MemberRow> {
    await projectForOwner(this.repos, user, id, 'add members');
    const member = await this.repos.users.findByEmail(email);
    if (!member) throw ValidationError.of('email', `No user with the email ${email}.`);
    return this.addExisting(id, member, role, (current) =>
      ValidationError.of('role', `${member.email} is already a member of this project as ${current}; change the role with PATCH /api/v3/projects/${id}/members/${member.id}/.`),
    );
  }

  private async addExisting(projectId: number, user: UserRow, role: ProjectRole | undefined, roleConflict: (current: ProjectRole) => Error): Promise<MemberRow> {
    const current = await this.repos.projects.roleOf(projectId, user.id);
    if (current && role && current !== role) throw roleConflict(current);
    if (!current) await this.repos.projects.addMember(projectId, user, role ?? 'member');
    return this.memberOf(projectId, user.id);
  }

  private async memberOf(projectId: number, userId: number): Promise<MemberRow> {
    const m = (await this.repos.projects.members(projectId)).find((x) => x.user_id === userId);
    // Gone between the write and this read: another request removed them meanwhile.
    if (!m) throw new NotFoundError('That user is not a member of this project.');
    return m;
  }

  async setRole(user: UserRow, id: number, memberId: number, role: ProjectRole): Promise<MemberRow> {
    await projectForOwner(this.repos, user, id, "change members' roles");
    this.changed(await this.repos.projects.setRole(id, memberId, role), 'That user is not a member of this project.', 'role');
    return this.memberOf(id, memberId);
  }

  /** Owners and administrators remove anyone; a member may remove only themselves (leave the project). */
  async removeMember(user: UserRow, id: number, memberId: number): Promise<void> {
    if (memberId === user.id) await projectForViewer(this.repos, user, id);
    else await projectForOwner(this.repos, user, id, 'remove members');
    this.changed(await this.repos.projects.removeMember(id, memberId), 'That user is not a member of this project.', 'user');
  }

  /** Turns a refused membership change into its error: 404 for no such member, 400 for the last owner. */
  private changed(result: MemberChange, notMember: string, field: string): void {
    if (result === 'not-member') throw new NotFoundError(notMember);
    if (result === 'last-owner') {
      throw ValidationError.of(field, 'A project keeps at least one owner: make another member an owner first, or delete the project.');
    }
  }

  /** For the CLI, which acts as the machine's administrator rather than as a project member. */
  async adminAddMember(projectId: number, email: string, role?: ProjectRole): Promise<MemberRow> {
    if (!(await this.repos.projects.findById(projectId))) throw new NotFoundError(`No project with id ${projectId}.`);
    const member = await this.repos.users.findByEmail(email);
    if (!member) throw new NotFoundError(`No user with the email ${email}.`);
    return this.addExisting(projectId, member, role, (current) =>
      ValidationError.of('role', `${member.email} is already a member of project ${projectId} as ${current}; change it with \`folio member role ${projectId} ${member.email} ${role}\`.`),
    );
  }

  async adminMembers(projectId: number): Promise<MemberRow[]> {
    if (!(await this.repos.projects.findById(projectId))) throw new NotFoundError(`No project with id ${projectId}.`);
    return this.repos.projects.members(projectId);
  }

  async adminSetRole(projectId: number, email: string, role: ProjectRole): Promise<MemberRow> {
    const member = await this.repos.users.findByEmail(email);
    const notMember = `${email} is not a member of project ${projectId}.`;
    if (!member) throw new NotFoundError(notMember);
    this.changed(await this.repos.projects.setRole(projectId, member.id, role), notMember, 'role');
    return this.memberOf(projectId, member.id);
  }

  async adminRemoveMember(projectId: number, email: string): Promise<void> {
    const member = await this.repos.users.findByEmail(email);
    const notMember = `${email} is not a member of project ${projectId}.`;
    if (!member) throw new NotFoundError(notMember);
    this.changed(await this.repos.projects.removeMember(projectId, member.id), notMember, 'user');
  }
}

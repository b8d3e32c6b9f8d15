// Categories, labels and label sets, for the members of their project (access.ts): the category/default-
// label-set pairing, label memberships and the checks on ids named in bodies. Every multi-row write runs
// in one unit of work.
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';
import type { CategoryView } from '../store/repositories/categoryRepository.ts';
import type { LabelView, LabelValues } from '../store/repositories/labelRepository.ts';
import type { LabelSetView } from '../store/repositories/labelSetRepository.ts';
import { labelDataType, type CategoryInput, type LabelInput, type LabelSetInput } from '../../shared/schemas/taxonomy.ts';
import { HttpError, ValidationError } from '../domain/errors.ts';
import { projectForField, recordForMember } from './access.ts';

const DEFAULT_THRESHOLD = 0.1;

/** Collects field errors so that one response names every bad field, then throws them at once. */
class FieldErrors {
  private readonly fields: Record<string, string[]> = {};

  /** Ids that do not exist (`owners` has no entry) or belong to another project than `projectId`. */
  ids(field: string, ids: number[] | undefined, owners: Map<number, number>, projectId: number): void {
    for (const id of new Set(ids ?? [])) {
      const owner = owners.get(id);
      if (owner === undefined) this.add(field, `Invalid pk "${id}" - object does not exist.`);
      else if (owner !== projectId) this.add(field, `Invalid pk "${id}" - object belongs to another project.`);
    }
  }

  add(field: string, message: string): void {
    (this.fields[field] ??= []).push(message);
  }

  throwIfAny(): void {
    if (Object.keys(this.fields).length) throw new ValidationError(this.fields);
  }
}

/**
 * Records keep their project: a body naming another one is refused rather than moving them. A project the
 * caller cannot see (or that does not exist) is first refused as POST refuses it (issue 31: PUT validates
 * as POST does), so the answer does not depend on the verb.
 */
async function refuseMove(repos: Repos, user: UserRow, input: { project?: number }, projectId: number, what: string): Promise<void> {
  if (input.project !== undefined && input.project !== projectId) {
    await projectForField(repos, user, input.project);
    throw ValidationError.of('project', `A ${what} cannot be moved to another project (it belongs to project ${projectId}).`);
  }
}

const sameIds = (a: number[], b: number[]): boolean => {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
};

export class TaxonomyService {
  constructor(
    private readonly repos: Repos,
    private readonly uow: UnitOfWork,
  ) {}

  // ---- categories ----

  listCategories(user: UserRow, params: ListParams): Promise<Page<CategoryView>> {
    return this.repos.categories.list(user.id, params);
  }

  async getCategory(user: UserRow, id: number): Promise<CategoryView> {
    return recordForMember(this.repos, user, await this.repos.categories.findById(id), 'Category');
  }

  async createCategory(user: UserRow, input: { project: number; name: string }): Promise<CategoryView> {
    const project = await projectForField(this.repos, user, input.project);
    const row = await this.uow(async (r) => {
      await this.checkLabelSetName(r, project.id, input.name, 'category');
      return r.categories.create(project.id, input.name);
    });
    return (await this.repos.categories.findById(row.id))!;
  }

  async updateCategory(user: UserRow, id: number, input: CategoryInput): Promise<CategoryView> {
    const current = await this.getCategory(user, id);
    await refuseMove(this.repos, user, input, current.project_id, 'category');
    if (input.name !== undefined) {
      await this.uow(async (r) => {
        await this.checkLabelSetName(r, current.project_id, input.name!, 'category', id);
        await r.categories.rename(id, input.name!);
      });
    }
    return (await this.repos.categories.findById(id))!;
  }

  /** Its default label set goes with it; its documents stay, uncategorized. */
  async removeCategory(user: UserRow, id: number): Promise<void> {
    await this.getCategory(user, id);
    await this.uow((r) => r.categories.remove(id));
  }

  // ---- labels ----

  listLabels(user: UserRow, params: ListParams): Promise<Page<LabelView>> {
    return this.repos.labels.list(user.id, params);
  }

  async getLabel(user: UserRow, id: number): Promise<LabelView> {
    return recordForMember(this.repos, user, await this.repos.labels.findById(id), 'Label');
  }

  async createLabel(user: UserRow, input: LabelInput & { project: number }): Promise<LabelView> {
    const project = await projectForField(this.repos, user, input.project);
    const id = await this.uow(async (r) => {
      const values = this.labelValues(input, true) as LabelValues;
      await this.checkLabelName(r, project.id, values.name);
      const labelSetIds = await this.labelMemberships(r, project.id, input, null);
      const row = await r.labels.insert(project.id, values);
      await r.labels.setLabelSets(row.id, labelSetIds ?? []);
      return row.id;
    });
    return (await this.repos.labels.findById(id))!;
  }

  /** `replace` (PUT): omitted fields get their defaults, memberships included. Otherwise (PATCH) they stay. */
  async updateLabel(user: UserRow, id: number, input: LabelInput, replace: boolean): Promise<LabelView> {
    const current = await this.getLabel(user, id);
    await refuseMove(this.repos, user, input, current.project_id, 'label');
    await this.uow(async (r) => {
      const values = this.labelValues(input, replace);
      if (values.name !== undefined) await this.checkLabelName(r, current.project_id, values.name, id);
      const labelSetIds = await this.labelMemberships(r, current.project_id, input, replace ? null : current.label_set_ids);
      await r.labels.update(id, values);
      if (labelSetIds) await r.labels.setLabelSets(id, labelSetIds);
    });
    return (await this.repos.labels.findById(id))!;
  }

  async removeLabel(user: UserRow, id: number): Promise<void> {
    await this.getLabel(user, id);
    await this.repos.labels.remove(id);
  }

  /** The label's own columns from a body; `complete` fills what is missing with the defaults. */
  private labelValues(input: LabelInput, complete: boolean): Partial<LabelValues> {
    const rawType = input.data_type ?? input.get_data_type_display;
    const dataType = rawType === undefined ? undefined : labelDataType(rawType);
    const description = input.description === undefined ? undefined : input.description ?? '';
    const v: Partial<LabelValues> = { name: input.name ?? input.text, dataType, description, threshold: input.threshold };
    if (complete) {
      v.dataType ??= 'Text';
      v.description ??= '';
      v.threshold ??= DEFAULT_THRESHOLD;
    }
    return v;
  }

  /**
   * Category and label set names are unique per project, compared without case: a category is its default
   * label set, so the two share one name space (two "Invoice" sets could not be told apart in review or
   * in the schema an SDK reads).
   */
  private async checkLabelSetName(r: Repos, projectId: number, name: string, kind: 'category' | 'label set', exceptId?: number): Promise<void> {
    const folded = name.trim().toLowerCase();
    const clash = (await r.labelSets.names(projectId)).find((s) => s.id !== exceptId && s.name.trim().toLowerCase() === folded);
    if (!clash) return;
    const what = clash.is_default ? 'category' : 'label set';
    throw ValidationError.of('name', `A ${what} named "${clash.name}" already exists in this project: choose another name for the ${kind}.`);
  }

  /** Label names are unique per project, compared without case (in any script, hence in JS). */
  private async checkLabelName(r: Repos, projectId: number, name: string, exceptId?: number): Promise<void> {
    const folded = name.toLowerCase();
    const clash = (await r.labels.names(projectId)).find((l) => l.id !== exceptId && l.name.toLowerCase() === folded);
    if (clash) throw ValidationError.of('name', `A label named "${clash.name}" already exists in this project.`);
  }

  /**
   * The label sets that will hold the label, or undefined when the body leaves them as they are.
   * `label_sets` (or `templates`) names them outright; each of `categories` not already covered by
   * one of them (through a label set linked to it) adds the category's default label set. Without
   * `label_sets`, `categories` replaces the default-set memberships and keeps the others, so that
   * sending back the derived categories changes nothing. `current` is null when the body replaces all.
   */
  private async labelMemberships(r: Repos, projectId: number, input: LabelInput, current: number[] | null): Promise<number[] | undefined> {
    const explicitField = input.label_sets !== undefined ? 'label_sets' : 'templates';
    const explicit = input.label_sets ?? input.templates;
    const categories = input.categories;
    if (current && explicit === undefined && categories === undefined) return undefined;

    const errors = new FieldErrors();
    if (explicit) errors.ids(explicitField, explicit, await r.labelSets.projectIdsOf(explicit), projectId);
    if (categories) errors.ids('categories', categories, await r.categories.projectIdsOf(categories), projectId);
    errors.throwIfAny();

    let sets = await r.labelSets.findByIds(explicit ?? current ?? []);
    if (!categories) return sets.map((s) => s.id);
    if (explicit === undefined) sets = sets.filter((s) => !s.is_default || categories.includes(s.id));
    const covered = new Set(sets.flatMap((s) => s.category_ids));
    return [...sets.map((s) => s.id), ...categories.filter((c) => !covered.has(c))];
  }

  // ---- label sets ----

  listLabelSets(user: UserRow, params: ListParams): Promise<Page<LabelSetView>> {
    return this.repos.labelSets.list(user.id, params);
  }

  async getLabelSet(user: UserRow, id: number): Promise<LabelSetView> {
    return recordForMember(this.repos, user, await this.repos.labelSets.findById(id), 'Label set');
  }

  async createLabelSet(user: UserRow, input: LabelSetInput & { project: number; name: string }): Promise<LabelSetView> {
    const project = await projectForField(this.repos, user, input.project);
    const id = await this.uow(async (r) => {
      await this.checkLabelSetLinks(r, project.id, input);
      await this.checkLabelSetName(r, project.id, input.name, 'label set');
      const hasMultipleSections = input.has_multiple_sections ?? input.has_multiple_annotation_sets ?? false;
      const row = await r.labelSets.insert({ projectId: project.id, name: input.name, hasMultipleSections, isDefault: false });
      await r.labelSets.setCategories(row.id, input.categories ?? []);
      await r.labelSets.setLabels(row.id, input.labels ?? []);
      return row.id;
    });
    return (await this.repos.labelSets.findById(id))!;
  }

  /**
   * `replace` (PUT): omitted fields get their defaults. A default label set keeps its one category
   * (the category with its id) and its name follows the category's.
   */
  async updateLabelSet(user: UserRow, id: number, input: LabelSetInput, replace: boolean): Promise<LabelSetView> {
    const current = await this.getLabelSet(user, id);
    await refuseMove(this.repos, user, input, current.project_id, 'label set');
    const isDefault = current.is_default;
    if (isDefault && input.categories !== undefined && !sameIds(input.categories, [id])) {
      throw ValidationError.of('categories', `Label set ${id} is the default label set of category "${current.name}" and belongs to it alone: change the category instead.`);
    }
    const categories = isDefault ? undefined : (input.categories ?? (replace ? [] : undefined));
    const labels = input.labels ?? (replace ? [] : undefined);
    const hasMultipleSections = input.has_multiple_sections ?? input.has_multiple_annotation_sets ?? (replace ? false : undefined);
    await this.uow(async (r) => {
      await this.checkLabelSetLinks(r, current.project_id, { categories, labels });
      if (input.name !== undefined) await this.checkLabelSetName(r, current.project_id, input.name, isDefault ? 'category' : 'label set', id);
      if (isDefault && input.name !== undefined) await r.categories.rename(id, input.name);
      await r.labelSets.update(id, { name: input.name, hasMultipleSections });
      if (categories) await r.labelSets.setCategories(id, categories);
      if (labels) await r.labelSets.setLabels(id, labels);
    });
    return (await this.repos.labelSets.findById(id))!;
  }

  async removeLabelSet(user: UserRow, id: number): Promise<void> {
    const current = await this.getLabelSet(user, id);
    if (current.is_default) {
      throw new HttpError(400, `Label set ${id} is the default label set of category "${current.name}": delete the category instead.`);
    }
    await this.repos.labelSets.remove(id);
  }

  /** Categories and labels of a label set must be of its project. */
  private async checkLabelSetLinks(r: Repos, projectId: number, input: { categories?: number[]; labels?: number[] }): Promise<void> {
    const errors = new FieldErrors();
    if (input.categories) errors.ids('categories', input.categories, await r.categories.projectIdsOf(input.categories), projectId);
    if (input.labels) errors.ids('labels', input.labels, await r.labels.projectIdsOf(input.labels), projectId);
    errors.throwIfAny();
  }
}

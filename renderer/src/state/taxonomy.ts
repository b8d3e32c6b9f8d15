// A project's categories, labels and label sets, as one store: the setup tab edits them, the documents
// tab names categories with them. After every change all three lists are read again, because each
// carries fields derived from the others (a label's categories, a category's labels and label sets).
import { create } from 'zustand';
import type { CategoryOut, FolioClient, LabelOut, LabelSetOut } from '../api/client.ts';
import { useSession } from './session.ts';

type LabelInput = Parameters<FolioClient['createLabel']>[0];
type LabelChanges = Parameters<FolioClient['updateLabel']>[1];
type LabelSetInput = Parameters<FolioClient['createLabelSet']>[0];
type LabelSetChanges = Parameters<FolioClient['updateLabelSet']>[1];

interface TaxonomyState {
  projectId: number | null;
  categories: CategoryOut[];
  labels: LabelOut[];
  /** Every label set, the categories' default ones (is_default) included. */
  labelSets: LabelSetOut[];
  /** True until the first answer for the project; refreshes keep showing the lists they replace. */
  loading: boolean;
  error: string | null;
  /** Loads the project's taxonomy (again, when it is already the loaded one). */
  load(projectId: number): Promise<void>;
  // The changes reject with the ApiError (field errors for the forms) and refresh the lists on success.
  createCategory(name: string): Promise<CategoryOut>;
  renameCategory(id: number, name: string): Promise<void>;
  deleteCategory(id: number): Promise<void>;
  createLabel(input: Omit<LabelInput, 'project'>): Promise<LabelOut>;
  updateLabel(id: number, changes: LabelChanges): Promise<void>;
  deleteLabel(id: number): Promise<void>;
  createLabelSet(input: Omit<LabelSetInput, 'project'>): Promise<LabelSetOut>;
  updateLabelSet(id: number, changes: LabelSetChanges): Promise<void>;
  deleteLabelSet(id: number): Promise<void>;
}

const call = <T>(fn: (c: FolioClient) => Promise<T>) => useSession.getState().call(fn);

export const useTaxonomy = create<TaxonomyState>()((set, get) => {
  /** Reads the three lists; an answer for a project the user has left since is dropped. */
  async function fetchAll(projectId: number): Promise<void> {
    try {
      const [categories, labels, labelSets] = await Promise.all([
        call((c) => c.listCategories(projectId)),
        call((c) => c.listLabels(projectId)),
        call((c) => c.listLabelSets(projectId)),
      ]);
      if (get().projectId !== projectId) return;
      set({ categories: categories.results, labels: labels.results, labelSets: labelSets.results, loading: false, error: null });
    } catch (err) {
      if (get().projectId === projectId) set({ loading: false, error: (err as Error).message });
    }
  }

  /** Runs a change for the loaded project, then reads the lists again. */
  async function change<T>(fn: (c: FolioClient, projectId: number) => Promise<T>): Promise<T> {
    const projectId = get().projectId;
    if (projectId === null) throw new Error('No project is open.');
    const result = await call((c) => fn(c, projectId));
    await fetchAll(projectId);
    return result;
  }

  return {
    projectId: null,
    categories: [],
    labels: [],
    labelSets: [],
    loading: false,
    error: null,

    load(projectId) {
      if (get().projectId !== projectId) set({ projectId, categories: [], labels: [], labelSets: [], loading: true, error: null });
      return fetchAll(projectId);
    },

    createCategory: (name) => change((c, project) => c.createCategory(project, name)),
    renameCategory: (id, name) => change((c) => c.renameCategory(id, name)).then(() => undefined),
    deleteCategory: (id) => change((c) => c.deleteCategory(id)),
    createLabel: (input) => change((c, project) => c.createLabel({ ...input, project })),
    updateLabel: (id, changes) => change((c) => c.updateLabel(id, changes)).then(() => undefined),
    deleteLabel: (id) => change((c) => c.deleteLabel(id)),
    createLabelSet: (input) => change((c, project) => c.createLabelSet({ ...input, project })),
    updateLabelSet: (id, changes) => change((c) => c.updateLabelSet(id, changes)).then(() => undefined),
    deleteLabelSet: (id) => change((c) => c.deleteLabelSet(id)),
  };
});

// Another account may log in next in this window: it reads the taxonomy afresh.
useSession.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) useTaxonomy.setState({ projectId: null, categories: [], labels: [], labelSets: [], loading: false, error: null });
});

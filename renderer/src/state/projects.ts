// The projects the signed-in user is a member of, newest first, loaded a page at a time.
import { create } from 'zustand';
import type { ProjectOut } from '../api/client.ts';
import { useSession } from './session.ts';

const PAGE_SIZE = 100;

interface ProjectsState {
  items: ProjectOut[];
  /** How many projects the user has in all (the envelope's count). */
  count: number;
  loading: boolean;
  error: string | null;
  /** Loads the first page again. */
  reload(): Promise<void>;
  /** Appends the next page. */
  loadMore(): Promise<void>;
  /** Creates a project and puts it first; rejects with the ApiError (field errors) for the form. */
  create(name: string): Promise<ProjectOut>;
  clear(): void;
}

export const useProjects = create<ProjectsState>()((set, get) => {
  async function fetchPage(offset: number): Promise<void> {
    set({ loading: true, error: null });
    try {
      const page = await useSession.getState().call((c) => c.listProjects({ limit: PAGE_SIZE, offset, ordering: '-created_at' }));
      set((s) => ({ items: offset === 0 ? page.results : [...s.items, ...page.results], count: page.count, loading: false }));
    } catch (err) {
      set({ loading: false, error: (err as Error).message });
    }
  }

  return {
    items: [],
    count: 0,
    loading: false,
    error: null,
    reload: () => fetchPage(0),
    loadMore: () => fetchPage(get().items.length),
    async create(name) {
      const project = await useSession.getState().call((c) => c.createProject({ name }));
      set((s) => ({ items: [project, ...s.items], count: s.count + 1 }));
      return project;
    },
    clear: () => set({ items: [], count: 0, loading: false, error: null }),
  };
});

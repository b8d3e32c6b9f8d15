// Where the window is: a small hash router (the page is served from one file, by Folio or from the app
// bundle, so the address after '#' is the route). Views read `useRoute`; links call `navigate`.
import { create } from 'zustand';

export type ProjectTab = 'documents' | 'setup' | 'ai' | 'members';

export type Route =
  | { view: 'projects' }
  /** `query`: the documents list's filters, sort and page as URL parameters (`status=2&ordering=-created_at`), so a
   * reload or a shared link shows the same list. */
  | { view: 'project'; projectId: number; tab: ProjectTab; query?: string }
  | { view: 'document'; documentId: number; mode: 'review' | 'edit' }
  | { view: 'settings' }
  | { view: 'users' }
  /** The read-only viewer of a public document by its link's token: shown with or without a login (App.tsx). */
  | { view: 'public'; token: string };

export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const parts = path.split('/').filter(Boolean);
  const id = Number(parts[1]);
  if (parts[0] === 'projects' && Number.isInteger(id) && id > 0) {
    const tab = parts[2] === 'setup' || parts[2] === 'ai' || parts[2] === 'members' ? parts[2] : 'documents';
    return { view: 'project', projectId: id, tab, ...(query ? { query } : {}) };
  }
  if (parts[0] === 'users') return { view: 'users' };
  if (parts[0] === 'documents' && Number.isInteger(id) && id > 0) return { view: 'document', documentId: id, mode: parts[2] === 'edit' ? 'edit' : 'review' };
  if (parts[0] === 'settings') return { view: 'settings' };
  // Any token the path names: the public viewer says "not public or does not exist" for the rest.
  if (parts[0] === 'public') return { view: 'public', token: /^[A-Za-z0-9_-]+$/.test(parts[1] ?? '') ? parts[1] : '' };
  return { view: 'projects' };
}

export function routePath(route: Route): string {
  switch (route.view) {
    case 'projects':
      return '#/projects';
    case 'project':
      return `#/projects/${route.projectId}${route.tab === 'documents' ? '' : `/${route.tab}`}${route.query ? `?${route.query}` : ''}`;
    case 'document':
      return `#/documents/${route.documentId}${route.mode === 'edit' ? '/edit' : ''}`;
    case 'settings':
      return '#/settings';
    case 'users':
      return '#/users';
    case 'public':
      return `#/public/${route.token}`;
  }
}

interface RouterState {
  route: Route;
  navigate(route: Route): void;
}

export const useRoute = create<RouterState>()((set) => ({
  route: parseRoute(typeof location === 'undefined' ? '' : location.hash),
  navigate(route) {
    const path = routePath(route);
    if (location.hash !== path) location.hash = path; // hashchange below updates the state
    else set({ route });
  },
}));

if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => useRoute.setState({ route: parseRoute(location.hash) }));
}

export const navigate = (route: Route) => useRoute.getState().navigate(route);

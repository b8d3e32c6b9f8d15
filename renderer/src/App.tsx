// The window's top level: the login form until a user is signed in, then their workspace. A public
// document's page (#/public/<id>) needs no login: it shows whether or not anyone is signed in.
import { useEffect } from 'react';
import { useSession } from './state/session.ts';
import { useRoute } from './router.ts';
import { LoginForm } from './shell/LoginForm.tsx';
import { Workspace } from './shell/Workspace.tsx';
import { PublicDocumentView } from './views/public/PublicDocumentView.tsx';

export function App() {
  const status = useSession((s) => s.status);
  const restore = useSession((s) => s.restore);
  const route = useRoute((s) => s.route);

  useEffect(() => {
    void restore();
  }, [restore]);

  if (route.view === 'public') return <PublicDocumentView token={route.token} />;
  if (status === 'checking') {
    return (
      <main className="centered" aria-busy="true">
        <p className="muted">Opening Folio…</p>
      </main>
    );
  }
  return status === 'signed-in' ? <Workspace /> : <LoginForm />;
}

// The window's top level: the login form until a user is signed in, then their workspace.
import { useEffect } from 'react';
import { useSession } from './state/session.ts';
import { LoginForm } from './components/LoginForm.tsx';
import { Workspace } from './components/Workspace.tsx';

export function App() {
  const status = useSession((s) => s.status);
  const restore = useSession((s) => s.restore);

  useEffect(() => {
    void restore();
  }, [restore]);

  if (status === 'checking') {
    return (
      <main className="centered" aria-busy="true">
        <p className="muted">Opening Folio…</p>
      </main>
    );
  }
  return status === 'signed-in' ? <Workspace /> : <LoginForm />;
}

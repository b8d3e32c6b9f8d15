// Replacing the account's API token: scripts (and other windows) using the old one stop working, so the
// dialog says so and asks for the password, which logs this window in again with the new token. A window
// signed in through single sign-on (or a Folio whose passwords are off) signs in at the provider again
// instead: the token is deleted, and the provider's sign-in brings this window back with the new one.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { clientFor, useSession } from '../../state/session.ts';
import type { SignInMethodsOut } from '../../api/client.ts';

export function RegenerateTokenDialog({ open, onClose }: { open: boolean; onClose(done: boolean): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const email = useSession((s) => s.user?.email ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const via = useSession((s) => s.via);
  const [methods, setMethods] = useState<SignInMethodsOut | null>(null);
  /** The provider to sign in at again, when this window does not renew with a password. */
  const sso = methods?.sso && (via === 'sso' || !methods.password) ? methods.sso : null;

  useEffect(() => {
    if (!open || window.folio) return;
    let live = true;
    clientFor(null)
      .signInMethods()
      .then((m) => live && setMethods(m))
      .catch(() => live && setMethods(null));
    return () => {
      live = false;
    };
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // showModal traps focus in the dialog and closes it on Escape (its close event tells us).
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
    if (open) {
      setPassword('');
      setError(null);
    }
  }, [open]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    if (sso) {
      try {
        await useSession.getState().call((c) => c.deleteToken());
        // No token now: the provider's sign-in makes the new one and brings this window back with it.
        window.location.assign(sso.login_url);
      } catch (err) {
        setError((err as Error).message);
        setBusy(false);
      }
      return;
    }
    try {
      // The password is checked first (a login answers the current token and changes nothing), so a
      // typo never leaves the account without a token this window knows.
      await clientFor(null).login(email, password);
      await useSession.getState().call((c) => c.deleteToken());
      await useSession.getState().login(email, password);
      onClose(true);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} className="card regenerate-dialog" aria-labelledby="regenerate-title" onClose={() => onClose(false)}>
      <form onSubmit={submit}>
        <h2 id="regenerate-title">Regenerate the API token?</h2>
        <p>
          Scripts and tools that use the current token stop working at once, and so does Folio in other windows where you are logged
          in. Give them the new token afterwards.
        </p>
        {sso ? (
          <p>You sign in at {sso.name} again, which brings this window back with the new token.</p>
        ) : (
          <>
            <label htmlFor="regenerate-password">Your password</label>
            <input
              id="regenerate-password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'regenerate-error' : undefined}
            />
          </>
        )}
        {error && (
          <p id="regenerate-error" className="error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" disabled={busy} onClick={() => onClose(false)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || (!sso && !password)}>
            {busy ? 'Regenerating…' : 'Regenerate token'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

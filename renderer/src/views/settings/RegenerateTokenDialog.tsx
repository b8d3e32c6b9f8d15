// Replacing the account's API token: scripts (and other windows) using the old one stop working, so the
// dialog says so and asks for the password, which logs this window in again with the new token.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { clientFor, useSession } from '../../state/session.ts';

export function RegenerateTokenDialog({ open, onClose }: { open: boolean; onClose(done: boolean): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const email = useSession((s) => s.user?.email ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
        {error && (
          <p id="regenerate-error" className="error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" disabled={busy} onClick={() => onClose(false)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || !password}>
            {busy ? 'Regenerating…' : 'Regenerate token'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

// Settings: the signed-in user changes their own password, with the current one (POST /api/v3/auth/password/).
// The API revokes the old token and answers a new one; this window signs in again with the new password, so
// it goes on while scripts and other windows that held the old token are signed out (as the card says).
// Administrators reset other accounts' passwords on the Users page.
import { useState, type FormEvent } from 'react';
import { useSession } from '../../state/session.ts';
import { reasonOf } from '../ai/reason.ts';
import { ApiError } from '../../api/transport.ts';
import '../admin/admin.css';

export function PasswordCard() {
  const email = useSession((s) => s.user?.email ?? '');
  const isAdmin = useSession((s) => !!s.user?.is_admin);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone(false);
    if (next !== again) {
      setError('The new password and its repetition differ.');
      return;
    }
    setBusy(true);
    try {
      await useSession.getState().call((c) => c.changePassword(current, next));
      // The old token is gone: sign this window in with the new password (the API answers the new token).
      await useSession.getState().login(email, next);
      setCurrent('');
      setNext('');
      setAgain('');
      setDone(true);
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as Record<string, string[]> | null) : null;
      setError(body?.current_password?.[0] ?? body?.new_password?.[0] ?? reasonOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card settings-card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p className="muted">
        Changing it also replaces your API token: scripts that use the old one must get the new one here. At least 8 characters, not your email.
        {isAdmin && ' Other accounts’ passwords are reset on the Users page.'}
      </p>
      <form className="admin-form password-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="current-password">Current password</label>
          <input id="current-password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-password">New password</label>
          <input id="new-password" type="password" autoComplete="new-password" required minLength={8} value={next} onChange={(e) => setNext(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-password-again">New password again</label>
          <input id="new-password-again" type="password" autoComplete="new-password" required value={again} onChange={(e) => setAgain(e.target.value)} />
        </div>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {done && (
        <p className="notice" role="status">
          Your password was changed. Your API token changed with it.
        </p>
      )}
    </section>
  );
}

// Email and password -> API token (POST /api/v3/auth/).
import { useState, type FormEvent } from 'react';
import { useSession } from '../state/session.ts';

export function LoginForm() {
  const login = useSession((s) => s.login);
  const notice = useSession((s) => s.notice);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(email.trim(), password);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <main className="centered">
      <form className="card login" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title" className="brand">
          Folio
        </h1>
        <p className="muted">Log in with your Folio account.</p>
        {notice && !error && <p className="notice">{notice}</p>}
        <label htmlFor="login-email">Email</label>
        <input
          id="login-email"
          type="email"
          autoComplete="username"
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}

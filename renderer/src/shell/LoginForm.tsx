// Signing in: email and password -> API token (POST /api/v3/auth/), and "Sign in with <provider>" where
// single sign-on is set up (a link to /api/v3/auth/oidc/login/, which comes back signed in; session.ts).
// What to offer comes from GET /api/v3/auth/methods/: with local passwords off only the provider's link.
import { useEffect, useState, type FormEvent } from 'react';
import { clientFor, useSession } from '../state/session.ts';
import type { SignInMethodsOut } from '../api/client.ts';

/** Passwords only: the desktop window (no browser to send to a provider), or a Folio that cannot say. */
const PASSWORDS_ONLY: SignInMethodsOut = { password: true, sso: null };

export function LoginForm() {
  const login = useSession((s) => s.login);
  const notice = useSession((s) => s.notice);
  const [methods, setMethods] = useState<SignInMethodsOut | null>(window.folio ? PASSWORDS_ONLY : null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (window.folio) return;
    let live = true;
    clientFor(null)
      .signInMethods()
      .then((m) => live && setMethods(m))
      .catch(() => live && setMethods(PASSWORDS_ONLY));
    return () => {
      live = false;
    };
  }, []);

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

  const sso = methods?.sso;
  return (
    <main className="centered">
      <form className="card login" onSubmit={submit} aria-labelledby="login-title" aria-busy={methods ? undefined : true}>
        <h1 id="login-title" className="brand">
          Folio
        </h1>
        {methods && !methods.password && sso && <p className="muted">Sign-in goes through {sso.name}.</p>}
        {methods?.password && !sso && <p className="muted">Log in with your Folio account.</p>}
        {notice && !error && <p className="notice">{notice}</p>}
        {sso && (
          <a className="sso-link" href={sso.login_url}>
            Sign in with {sso.name}
          </a>
        )}
        {methods?.password && (
          <>
            {sso && <p className="muted sso-or">or with your Folio account</p>}
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
          </>
        )}
      </form>
    </main>
  );
}

// Accounts, for administrators: who may log in, add one (with a password given or generated, shown once),
// change its role (never the last administrator's: the API says why), reset its password (generated, shown
// once; that account is signed out everywhere), remove one. The same as `folio user ...` on the command line, through the API's users/ endpoints.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { UserOut } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';
import { reasonOf } from '../ai/reason.ts';
import { ConfirmDelete } from '../project/ConfirmDelete.tsx';
import { CopyButton } from '../settings/CopyButton.tsx';
import '../project/project.css';
import './admin.css';

/** 18 random bytes in base64url: 24 characters, as strong as Folio's own first-run password and then some. */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
}

export function UsersView() {
  const me = useSession((s) => s.user);
  const call = useSession((s) => s.call);
  const [users, setUsers] = useState<UserOut[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reset, setReset] = useState<{ email: string; password: string } | null>(null);

  async function attempt(fn: () => Promise<unknown>) {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(reasonOf(err));
    }
    await load();
  }

  async function resetPassword(u: UserOut) {
    const password = generatePassword();
    setReset(null);
    await attempt(async () => {
      await call((c) => c.resetPassword(u.id, password));
      setReset({ email: u.email, password });
    });
  }

  const load = useCallback(() => call((c) => c.listUsers()).then((r) => setUsers(r.results), (err) => setError(reasonOf(err))), [call]);
  useEffect(() => void load(), [load]);

  if (!me?.is_admin) {
    return (
      <main className="page admin-page">
        <h1>Users</h1>
        <p className="notice">Only an administrator manages accounts. Ask yours to add or remove one.</p>
      </main>
    );
  }
  return (
    <main className="page admin-page">
      <h1>Users</h1>
      <p className="muted">Everyone who may log in to this Folio. Add people to projects on each project&apos;s Members tab.</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {reset && (
        <p className="notice" role="status">
          New password of {reset.email}: <code>{reset.password}</code> <CopyButton text={reset.password} what="new password" /> It is not shown again; their
          sessions and API token ended.
        </p>
      )}
      <AddUserForm onAdded={load} />
      {users && (
        <table className="admin-table" aria-label="Users">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.email}</td>
                <td>{u.name || <span className="muted">—</span>}</td>
                <td>
                  <select
                    aria-label={`Role of ${u.email}`}
                    value={u.is_admin ? 'admin' : 'user'}
                    onChange={(e) => void attempt(() => call((c) => c.updateUser(u.id, { is_admin: e.target.value === 'admin' })))}
                  >
                    <option value="admin">Administrator</option>
                    <option value="user">User</option>
                  </select>
                </td>
                <td className="actions">
                  {u.id === me.id ? (
                    <span className="muted">You</span>
                  ) : (
                    <>
                    <button
                      type="button"
                      onClick={() => {
                        if (confirm(`Reset the password of ${u.email}? They are signed out everywhere and need the new password, shown here once.`)) void resetPassword(u);
                      }}
                    >
                      Reset password
                    </button>
                    <ConfirmDelete
                      what={`user ${u.email}`}
                      question={`Remove ${u.email}? They can no longer log in; their documents and annotations stay.`}
                      onConfirm={async () => {
                        try {
                          await call((c) => c.deleteUser(u.id));
                        } catch (err) {
                          throw new Error(reasonOf(err));
                        }
                        await load();
                      }}
                    />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

function AddUserForm({ onAdded }: { onAdded(): Promise<unknown> }) {
  const call = useSession((s) => s.call);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [admin, setAdmin] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<{ email: string; password: string } | null>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const chosen = password || generatePassword();
    try {
      const user = await call((c) => c.createUser({ email, password: chosen, name: name || undefined, is_admin: admin }));
      setMade({ email: user.email, password: chosen });
      setEmail('');
      setName('');
      setPassword('');
      setAdmin(false);
      await onAdded();
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="add-user-title">
      <h2 id="add-user-title">Add a user</h2>
      <form className="admin-form" onSubmit={add}>
        <div className="field">
          <label htmlFor="new-user-email">Email</label>
          <input id="new-user-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-user-name">Name</label>
          <input id="new-user-name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-user-password">Password</label>
          <input id="new-user-password" type="text" autoComplete="new-password" placeholder="empty: generate one" value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <label className="check">
          <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.target.checked)} /> Administrator
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add user'}
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {made && (
        <div className="notice password-once" role="status">
          <p>
            <strong>{made.email}</strong> can log in with the password <code data-testid="new-password">{made.password}</code>. It is shown only now: pass it
            on, then close this note.
          </p>
          <CopyButton text={made.password} what={`the password of ${made.email}`} />
          <button type="button" onClick={() => setMade(null)}>
            Close
          </button>
        </div>
      )}
    </section>
  );
}

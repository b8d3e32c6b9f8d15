// A project's members and their roles. Owners (and administrators) add people who have an account, picked
// from the accounts that are not members yet (GET member-candidates/, never a typed email), make them owners
// or members, and remove them; a member sees the list. The project keeps at least one owner:
// the API refuses otherwise and says so here.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { MemberCandidateOut, MemberOut, ProjectOut, Role } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';
import { reasonOf } from '../ai/reason.ts';
import { ConfirmDelete } from '../project/ConfirmDelete.tsx';
import './admin.css';

export function MembersTab({ project }: { project: ProjectOut }) {
  const me = useSession((s) => s.user);
  const call = useSession((s) => s.call);
  const [members, setMembers] = useState<MemberOut[] | null>(null);
  const [candidates, setCandidates] = useState<MemberCandidateOut[]>([]);
  const [error, setError] = useState<string | null>(null);

  const canManage = !!me?.is_admin || !!members?.some((m) => m.id === me?.id && m.role === 'owner');
  const load = useCallback(
    () =>
      call((c) => c.listMembers(project.id)).then(
        (r) => setMembers(r.results),
        (err) => setError(reasonOf(err)),
      ),
    [call, project.id],
  );
  useEffect(() => {
    void load();
  }, [load]);
  // Owners and administrators pick new members from the accounts that are not members yet.
  useEffect(() => {
    if (!canManage || !members) return;
    call((c) => c.memberCandidates(project.id)).then(
      (r) => setCandidates(r.results),
      () => setCandidates([]),
    );
  }, [call, project.id, canManage, members]);
  async function attempt(fn: () => Promise<unknown>) {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(reasonOf(err));
    }
    await load();
  }

  return (
    <div className="members-tab">
      <p className="muted">
        Members upload, review, train and set up the categories and labels. Owners also change the project&apos;s settings and its members.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {members && (
        <table className="admin-table" aria-label="Members">
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
            {members.map((m) => (
              <tr key={m.id}>
                <td>{m.email}</td>
                <td>{m.name || <span className="muted">—</span>}</td>
                <td>
                  {canManage ? (
                    <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void attempt(() => call((c) => c.setMemberRole(project.id, m.id, e.target.value as Role)))}>
                      <option value="owner">Owner</option>
                      <option value="member">Member</option>
                    </select>
                  ) : m.role === 'owner' ? (
                    'Owner'
                  ) : (
                    'Member'
                  )}
                </td>
                <td className="actions">
                  {(canManage || m.id === me?.id) && (
                    <ConfirmDelete
                      what={`member ${m.email}`}
                      question={m.id === me?.id ? 'Leave this project? You will no longer see it.' : `Remove ${m.email} from ${project.name}? Their account stays.`}
                      onConfirm={() => attempt(() => call((c) => c.removeMember(project.id, m.id)))}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canManage && members && <AddMemberForm projectId={project.id} users={candidates} onAdded={load} onError={setError} />}
    </div>
  );
}

function AddMemberForm({ projectId, users, onAdded, onError }: { projectId: number; users: MemberCandidateOut[]; onAdded(): Promise<unknown>; onError(e: string | null): void }) {
  const call = useSession((s) => s.call);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [busy, setBusy] = useState(false);

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    onError(null);
    try {
      await call((c) => c.addMember(projectId, email.trim(), role));
      setEmail('');
      setRole('member');
      await onAdded();
    } catch (err) {
      onError(reasonOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="add-member-title">
      <h2 id="add-member-title">Add a member</h2>
      <form className="admin-form" onSubmit={add}>
        <div className="field">
          <label htmlFor="new-member-user">Account</label>
          <select id="new-member-user" required value={email} onChange={(e) => setEmail(e.target.value)} disabled={users.length === 0}>
            <option value="">{users.length ? 'Choose an account…' : 'Every account is a member already'}</option>
            {users.map((u) => (
              <option key={u.id} value={u.email}>
                {u.name ? `${u.name} (${u.email})` : u.email}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="new-member-role">Role</label>
          <select id="new-member-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </select>
        </div>
        <button type="submit" className="primary" disabled={busy || !email}>
          {busy ? 'Adding…' : 'Add member'}
        </button>
      </form>
    </section>
  );
}

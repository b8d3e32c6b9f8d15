// The account's API token for local scripts: masked until asked, copied with one button, and replaced
// (after a warning) when it may have leaked.
import { useState } from 'react';
import { useSession } from '../../state/session.ts';
import { CopyButton } from './CopyButton.tsx';
import { RegenerateTokenDialog } from './RegenerateTokenDialog.tsx';

export function TokenCard() {
  const token = useSession((s) => s.token) ?? '';
  const [visible, setVisible] = useState(false);
  const [asking, setAsking] = useState(false);
  const [notice, setNotice] = useState('');

  return (
    <section className="card settings-card" aria-labelledby="token-title">
      <h2 id="token-title">API token</h2>
      <p className="muted">
        Scripts on this computer send it as <code>Authorization: Token …</code>. Keep it secret: it acts as you.
      </p>
      <div className="settings-row">
        <label htmlFor="api-token" className="visually-hidden">
          Your API token
        </label>
        <input id="api-token" className="mono" type={visible ? 'text' : 'password'} readOnly value={token} spellCheck={false} autoComplete="off" />
        <button type="button" aria-pressed={visible} onClick={() => setVisible(!visible)}>
          {visible ? 'Hide' : 'Show'}
        </button>
        <CopyButton text={token} what="API token" />
      </div>
      <div className="settings-row">
        <button type="button" onClick={() => { setNotice(''); setAsking(true); }}>
          Regenerate token…
        </button>
        <span className="muted" role="status">
          {notice}
        </span>
      </div>
      <RegenerateTokenDialog
        open={asking}
        onClose={(done) => {
          setAsking(false);
          if (done) setNotice('A new token was made. Scripts need the new one now.');
        }}
      />
    </section>
  );
}

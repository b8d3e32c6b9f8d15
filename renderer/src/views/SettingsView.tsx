// Settings: where the API is and the token for local scripts, the API reference, the user's own password,
// the data folder and the OCR languages Folio can read.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { OcrLanguageOut } from '../api/client.ts';
import type { OcrEngineInfo } from '../../../shared/schemas/ocrEngine.ts';
import { useClient, useSession } from '../state/session.ts';
import { CopyButton } from './settings/CopyButton.tsx';
import { TokenCard } from './settings/TokenCard.tsx';
import { PasswordCard } from './settings/PasswordCard.tsx';
// project.css holds the pieces the two views share (visually hidden labels).
import './project/project.css';
import './settings/settings.css';

export function SettingsView() {
  return (
    <main className="page settings-page">
      <h1>Settings</h1>
      <ApiCard />
      <TokenCard />
      <PasswordCard />
      <section className="card settings-card" aria-labelledby="data-title">
        <h2 id="data-title">Data folder</h2>
        <p className="muted">
          Documents, models and the database are kept in Folio&apos;s data folder
          {window.folio?.dataDir ? (
            <>
              : <code>{window.folio.dataDir}</code> (File → Open Data Folder opens it).
            </>
          ) : (
            <>; <code>folio serve</code> prints its location when it starts.</>
          )}
        </p>
        <LastBackup />
      </section>
      <OcrLanguagesCard />
    </main>
  );
}

/** When `folio backup` last copied the data folder (README, Command line). */
function LastBackup() {
  const call = useSession((s) => s.call);
  const [text, setText] = useState('Last backup: …');
  useEffect(() => {
    call((c) => c.backupStatus()).then(
      ({ last_backup: last }) => setText(last ? `Last backup: ${new Date(last.created_at).toLocaleString()}.` : 'No backup has been made yet.'),
      (err: Error) => setText(`Last backup: unknown (${err.message}).`),
    );
  }, [call]);
  return (
    <p className="muted" data-testid="last-backup">
      {text} <code>folio backup &lt;file&gt;</code> makes one while Folio runs; <code>folio restore &lt;file&gt;</code> brings it back into an empty
      folder.
    </p>
  );
}

function ApiCard() {
  const token = useSession((s) => s.token);
  // In the desktop window the page comes from folio://app; scripts reach the embedded API server instead.
  const origin = window.folio?.apiUrl ?? location.origin;
  // Swagger UI asks for a login unless it gets the token: the page by a signed URL, the token in the fragment,
  // which no server or proxy sees (its "Try it out" sends it as a header).
  const client = useClient();
  const swaggerUrl = useMemo(() => `${client.fileUrl('/swagger/')}${token ? `#token=${encodeURIComponent(token)}` : ''}`, [client, token]);
  return (
    <section className="card settings-card" aria-labelledby="api-title">
      <h2 id="api-title">REST API</h2>
      <div className="settings-row">
        <label htmlFor="api-address">API address</label>
        <input id="api-address" className="mono" readOnly value={origin} />
        <CopyButton text={origin} what="API address" />
      </div>
      <p>
        <a href={swaggerUrl} target="_blank" rel="noopener noreferrer">
          Open the API reference (Swagger UI)
        </a>
        {' · '}
        <a href="/api/v3/openapi.json" target="_blank" rel="noopener noreferrer">
          OpenAPI document
        </a>
      </p>
      <p className="muted">
        For example: <code className="mono">curl -H &quot;Authorization: Token $FOLIO_TOKEN&quot; {origin}/api/v3/projects/</code>
      </p>
    </section>
  );
}

const SOURCE_NOTES: Record<string, string> = { system: ", from this machine's tesseract", data: ', added to the data folder' };

function OcrLanguagesCard() {
  const call = useSession((s) => s.call);
  const isAdmin = useSession((s) => !!s.user?.is_admin);
  const [languages, setLanguages] = useState<OcrLanguageOut[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => call((c) => c.ocrLanguages()).then(setLanguages, (err: Error) => setError(err.message)), [call]);
  useEffect(() => {
    void load();
  }, [load]);

  const installed = languages?.filter((l) => l.installed) ?? [];
  return (
    <section className="card settings-card" aria-labelledby="ocr-title">
      <h2 id="ocr-title">OCR languages</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!languages && !error && <p className="muted">Loading…</p>}
      <OcrEngineLine />
      {languages && (
        <>
          <ul className="language-list" aria-label="Installed OCR languages">
            {installed.map((l) => (
              <li key={l.code}>
                {l.name} <span className="muted">({l.code}{SOURCE_NOTES[l.source ?? ''] ?? ''})</span>
              </li>
            ))}
          </ul>
          <p className="muted">
            {installed.length} of {languages.length} languages are installed; each project chooses its languages in its setup. Languages
            this machine&apos;s tesseract has (for example Debian&apos;s <code>tesseract-ocr-fra</code>) are there without copying.
          </p>
          {isAdmin ? (
            <AddOcrModel onAdded={load} />
          ) : (
            <p className="muted">An administrator can add another language&apos;s model file here.</p>
          )}
        </>
      )}
    </section>
  );
}

/** Administrators: upload a tesseract model (`<code>.traineddata`); the API checks it and stores it in the data folder. */
function AddOcrModel({ onAdded }: { onAdded: () => unknown }) {
  const call = useSession((s) => s.call);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const add = async () => {
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const added = await call((c) => c.addOcrModel(file, file.name));
      setMessage({ ok: true, text: `${added.name} (${added.code}) is installed${added.replaced ? ', replacing the earlier model' : ''}.` });
      setFile(null);
      await onAdded();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="ocr-model-add">
      <label htmlFor="ocr-model-file">Add a language model (<code>.traineddata</code>, from tessdata, tessdata_fast or tessdata_best)</label>{' '}
      <input id="ocr-model-file" type="file" accept=".traineddata" onChange={(e) => setFile(e.target.files?.[0] ?? null)} disabled={busy} />{' '}
      <button type="button" onClick={() => void add()} disabled={!file || busy}>
        {busy ? 'Adding…' : 'Add language'}
      </button>
      {message && (
        <p className={message.ok ? 'muted' : 'error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </div>
  );
}

/** Which OCR engine reads scanned pages (FOLIO_OCR_ENGINE), its version, and the others this machine has. */
function OcrEngineLine() {
  const call = useSession((s) => s.call);
  const [info, setInfo] = useState<OcrEngineInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call((c) => c.ocrEngine()).then(setInfo, (err: Error) => setError(err.message));
  }, [call]);
  if (error) return <p className="muted" data-testid="ocr-engine">OCR engine: unknown ({error}).</p>;
  if (!info) return <p className="muted" data-testid="ocr-engine">OCR engine: …</p>;
  const others = info.engines.filter((e) => e.name !== info.engine);
  return (
    <p data-testid="ocr-engine">
      OCR engine: <strong>{info.engine}</strong> ({info.version}
      {info.setting === 'auto' ? ', chosen automatically' : `, FOLIO_OCR_ENGINE=${info.setting}`}).{' '}
      <span className="muted">
        {others.map((e, i) => (
          <span key={e.name}>
            {i > 0 ? '; ' : 'Also '}
            {e.available ? `${e.name} (${e.version}) is available` : `${e.name} is not available: ${e.reason}`}
          </span>
        ))}
        {others.length ? '. ' : ''}
        Each page records the engine that read it.
      </span>
    </p>
  );
}

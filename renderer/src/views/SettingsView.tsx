// Settings: the API address and token for local scripts, the API reference, OCR languages.
export function SettingsView() {
  return (
    <main className="page">
      <h1>Settings</h1>
      <p className="muted">Being built.</p>
    </main>
  );
}

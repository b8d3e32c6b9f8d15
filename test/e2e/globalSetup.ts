// Starts one `folio serve` on a free loopback port with a fresh data folder and a known administrator,
// after making sure the renderer build is current; the tests reach it through FOLIO_E2E_URL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, startFolio } from '../helpers/processes.ts';

export const E2E_ADMIN = { email: 'reviewer@folio.test', password: 'e2e-password-123' };

export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, [path.join(repoRoot, 'bin', 'ensure-renderer.mjs')], { stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-e2e-'));
  // Continuous learning waits an hour after a finished review here: the day tests train by hand and count
  // their AIs, which a background training falling due halfway (30 s by default) would race on a slow machine.
  // Its own tests run through the API (test/http/continuousLearning.test.ts) with a short delay.
  const env = { FOLIO_ADMIN_EMAIL: E2E_ADMIN.email, FOLIO_ADMIN_PASSWORD: E2E_ADMIN.password, FOLIO_IMPORT_ROOTS: fs.realpathSync(os.tmpdir()), FOLIO_LEARNING_DELAY_SECONDS: '3600' };
  const folio = await startFolio({ dataDir, env });
  process.env.FOLIO_E2E_URL = folio.url;
  process.env.FOLIO_E2E_DATA = dataDir;
  return async () => {
    await folio.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

// End-to-end tests of the renderer in Debian's Chromium (Playwright cannot download browsers here; CI
// installs the `chromium` package) against a real `folio serve` started by globalSetup.ts.
import { execSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

function chromiumPath(): string {
  if (process.env.FOLIO_CHROMIUM) return process.env.FOLIO_CHROMIUM;
  try {
    return execSync('which chromium', { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('The end-to-end tests need Chromium: apt-get install -y chromium (or set FOLIO_CHROMIUM to a Chromium binary).');
  }
}

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  globalSetup: './globalSetup.ts',
  outputDir: '../../test-results/e2e',
  fullyParallel: false,
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['./summaryReporter.ts']],
  use: {
    baseURL: process.env.FOLIO_E2E_URL,
    viewport: { width: 1400, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: chromiumPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    },
  },
});

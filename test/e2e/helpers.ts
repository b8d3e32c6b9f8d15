// What the end-to-end tests share: logging in through the form, an API client for checking what the
// server holds after each step, and screenshots kept as test artifacts.
import { expect, type Page, type TestInfo } from '@playwright/test';
import { E2E_ADMIN } from './globalSetup.ts';

export { E2E_ADMIN };

export async function logIn(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // Exact: the list's own heading ("2 projects") contains the word too once a run has made projects.
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
}

/** The API as a script sees it, with the administrator's token. */
export async function api(): Promise<{
  get(path: string): Promise<any>;
  post(path: string, body: unknown): Promise<any>;
  /** A multipart upload (documents: the file in `data_file`); answers the parsed JSON. */
  upload(path: string, fields: Record<string, string | number>, file: { name: string; data: Uint8Array; field?: string }): Promise<any>;
}> {
  const base = process.env.FOLIO_E2E_URL!;
  const login = await fetch(`${base}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: E2E_ADMIN.email, password: E2E_ADMIN.password }) });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Token ${token}`, 'Content-Type': 'application/json' };
  return {
    get: async (path) => (await fetch(`${base}${path}`, { headers })).json(),
    post: async (path, body) => (await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json(),
    upload: async (path, fields, file) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
      form.append(file.field ?? 'data_file', new Blob([file.data as BlobPart], { type: 'application/pdf' }), file.name);
      return (await fetch(`${base}${path}`, { method: 'POST', headers: { Authorization: headers.Authorization }, body: form })).json();
    },
  };
}

/** A full-page screenshot attached to the test's report and kept under test-results/e2e. */
export async function snapshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const file = info.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await info.attach(name, { path: file, contentType: 'image/png' });
}

/** Drags a rectangle a little larger than a span (PDF points, origin bottom left) over the viewer's page. */
export async function drawAround(page: Page, span: { page_index: number; x0: number; x1: number; y0: number; y1: number }, pageSize: [number, number]): Promise<void> {
  const box = (await page.locator(`.viewer-page[data-page-number="${span.page_index + 1}"]`).boundingBox())!;
  const sx = box.width / pageSize[0];
  const sy = box.height / pageSize[1];
  const margin = 3;
  const from = { x: box.x + (span.x0 - margin) * sx, y: box.y + (pageSize[1] - span.y1 - margin) * sy };
  const to = { x: box.x + (span.x1 + margin) * sx, y: box.y + (pageSize[1] - span.y0 + margin) * sy };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

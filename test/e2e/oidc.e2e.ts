// Single sign-on in Chromium: a Folio of its own (`folio serve` with FOLIO_OIDC_*) and a real OpenID
// Connect provider (oidc-provider on loopback, test/helpers/oidcProvider.ts). The reviewer clicks "Sign in
// with <provider>", signs in on the provider's page, allows Folio, and lands in the workstation; the API
// token Settings shows works for scripts, and regenerating it goes through the provider again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startFolio, type FolioProcess } from '../helpers/processes.ts';
import { freePort, startOidcProvider, type TestOidcProvider } from '../helpers/oidcProvider.ts';
import { snapshot } from './helpers.ts';

const CLIENT = { clientId: 'folio-e2e', clientSecret: 'folio-e2e-client-secret-0123456789' };

let folio: FolioProcess;
let idp: TestOidcProvider;
let dataDir: string;

test.beforeAll(async () => {
  const providerPort = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-e2e-oidc-'));
  folio = await startFolio({
    dataDir,
    env: {
      FOLIO_OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      FOLIO_OIDC_CLIENT_ID: CLIENT.clientId,
      FOLIO_OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      FOLIO_OIDC_NAME: 'Example SSO',
      FOLIO_OIDC_SCOPES: 'openid email profile groups',
      FOLIO_OIDC_ADMIN_GROUP: 'folio-admins',
      FOLIO_LOCAL_LOGIN: 'off',
    },
  });
  idp = await startOidcProvider({
    port: providerPort,
    client: { ...CLIENT, redirectUris: [`${folio.url}/api/v3/auth/oidc/callback/`] },
    accounts: [{ id: 'ada', email: 'ada@example.org', email_verified: true, name: 'Ada Byron', groups: ['folio-admins'] }],
  });
});

test.afterAll(async () => {
  await idp?.close();
  await folio?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('signs in through the provider, lands in Folio, and the account API token works', async ({ page }, info) => {
  await page.goto(folio.url);
  // Local passwords are off: the provider's button only.
  await expect(page.getByText('Sign-in goes through Example SSO.')).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await snapshot(page, info, 'oidc-login-page');
  await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();

  // The provider's own pages: its login form, then its consent.
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill('ada');
  await page.locator('input[name="password"]').fill('whatever-the-provider-checks');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Back in Folio, signed in; the token is out of the address.
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  expect(page.url()).toBe(`${folio.url}/#/projects`);
  await expect(page.getByRole('link', { name: 'Users' })).toBeVisible(); // an administrator, by the group claim

  await page.getByRole('link', { name: 'Settings' }).click();
  const field = page.getByLabel('Your API token');
  await expect(field).toHaveValue(/^[0-9a-f]{40}$/);
  const token = await field.inputValue();
  await snapshot(page, info, 'oidc-settings');

  // A script with that token: who it is, and real work on the REST API.
  const headers = { Authorization: `Token ${token}`, 'Content-Type': 'application/json' };
  const me = await (await fetch(`${folio.url}/api/v3/auth/me/`, { headers })).json();
  expect(me).toMatchObject({ email: 'ada@example.org', name: 'Ada Byron', is_admin: true });
  const made = await fetch(`${folio.url}/api/v3/projects/`, { method: 'POST', headers, body: JSON.stringify({ name: 'Signed in by SSO' }) });
  expect(made.status).toBe(201);
  // Passwords do not sign in here.
  const password = await fetch(`${folio.url}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'ada@example.org', password: 'x' }) });
  expect(password.status).toBe(403);

  // Regenerating the token signs in at the provider again (its session remembers Ada) and comes back with a new one.
  await page.getByRole('button', { name: 'Regenerate token…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Regenerate the API token?' });
  await expect(dialog.getByText('You sign in at Example SSO again')).toBeVisible();
  await dialog.getByRole('button', { name: 'Regenerate token' }).click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(field).toHaveValue(/^[0-9a-f]{40}$/);
  const renewed = await field.inputValue();
  expect(renewed).not.toBe(token);
  expect((await fetch(`${folio.url}/api/v3/auth/me/`, { headers })).status).toBe(401);
  expect((await fetch(`${folio.url}/api/v3/projects/`, { headers: { Authorization: `Token ${renewed}` } })).status).toBe(200);
});

// Account management in the window (issue 29 item 4): a user changes their own password in Settings (a wrong
// current one is refused in words; afterwards the new password logs in and the old one does not, and the window
// stays signed in); the project owner picks a new member from the existing accounts. Checked through the API.
import { expect, test } from '@playwright/test';
import { api, logIn, snapshot } from './helpers.ts';

const base = () => process.env.FOLIO_E2E_URL!;
async function canLogIn(email: string, password: string): Promise<boolean> {
  const r = await fetch(`${base()}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: email, password }) });
  return r.status === 200;
}

test('own password change in Settings, and members picked from the accounts', async ({ page, browser }, info) => {
  const server = await api();
  const stamp = Date.now();
  const gina = `gina-${stamp}@folio.test`;
  const created = await server.post('/api/v3/users/', { email: gina, password: 'gina-password-1', name: `Gina ${stamp}` });
  expect(created.id, JSON.stringify(created)).toBeTruthy();

  // Gina, in a window of her own, changes her password.
  const context = await browser.newContext();
  const own = await context.newPage();
  await own.goto(base());
  await own.getByLabel('Email').fill(gina);
  await own.getByLabel('Password').fill('gina-password-1');
  await own.getByRole('button', { name: 'Log in' }).click();
  await expect(own.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await own.goto(`${base()}/#/settings`);
  const card = own.getByRole('region', { name: 'Password' });
  await card.getByLabel('Current password').fill('not-my-password');
  await card.getByLabel('New password', { exact: true }).fill('gina-password-2');
  await card.getByLabel('New password again').fill('gina-password-2');
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(card.getByRole('alert')).toHaveText('The current password is wrong.');
  expect(await canLogIn(gina, 'gina-password-1')).toBe(true);

  await card.getByLabel('Current password').fill('gina-password-1');
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(card.getByRole('status')).toContainText('Your password was changed');
  expect(await canLogIn(gina, 'gina-password-2')).toBe(true);
  expect(await canLogIn(gina, 'gina-password-1')).toBe(false);
  // The window goes on with its new token: a reload keeps her signed in.
  await own.reload();
  await expect(own.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(own.getByLabel('Email')).toHaveCount(0);
  await snapshot(own, info, 'password-changed');
  await context.close();

  // The administrator adds Gina to a project by picking her account; she is then no longer offered.
  const project = await server.post('/api/v3/projects/', { name: `Accounts ${stamp}` });
  await logIn(page);
  await page.goto(`/#/projects/${project.id}/members`);
  const picker = page.getByLabel('Account', { exact: true });
  await expect(picker.locator('option', { hasText: gina })).toHaveText(`Gina ${stamp} (${gina})`);
  await picker.selectOption(gina);
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(gina);
  await expect(picker.locator('option', { hasText: gina })).toHaveCount(0);
  const members = (await server.get(`/api/v3/projects/${project.id}/members/`)).results as { email: string; role: string }[];
  expect(members.find((m) => m.email === gina)?.role).toBe('member');
  await snapshot(page, info, 'member-picked');
});

// Administration in the window (issue 12): accounts (add with a given or generated password shown once,
// remove), a project's members and roles, assigning documents to a member, and the setup's refusal of a
// second category of the same name (the field clears after a category is added). Checked through the API.
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot } from './helpers.ts';

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(text, { x: 72, y: 770, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/** Whether the API lets this email and password log in. */
async function canLogIn(email: string, password: string): Promise<boolean> {
  const r = await fetch(`${process.env.FOLIO_E2E_URL}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: email, password }) });
  return r.status === 200;
}

test('users, members and roles, assignment, unique category names', async ({ page }, info) => {
  const server = await api();
  const stamp = Date.now();
  const ann = `ann-${stamp}@folio.test`;
  const ben = `ben-${stamp}@folio.test`;
  const users = async () => ((await server.get('/api/v3/users/?limit=1000')).results as { id: number; email: string; is_admin: boolean }[]);

  await logIn(page);
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();

  // A password given by the administrator.
  await page.getByLabel('Email').fill(ann);
  await page.getByLabel('Name').fill('Ann Lee');
  await page.getByLabel('Password').fill('ann-password-123');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByTestId('new-password')).toHaveText('ann-password-123');
  await expect(page.getByRole('table', { name: 'Users' })).toContainText(ann);
  expect((await users()).find((u) => u.email === ann)).toMatchObject({ is_admin: false });
  expect(await canLogIn(ann, 'ann-password-123')).toBe(true);

  // A generated one, shown once.
  await page.getByLabel('Email').fill(ben);
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('status').filter({ hasText: ben })).toBeVisible();
  const generated = (await page.getByTestId('new-password').textContent())!;
  expect(generated.length).toBeGreaterThanOrEqual(16);
  expect(await canLogIn(ben, generated)).toBe(true);
  await snapshot(page, info, 'users');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('new-password')).toHaveCount(0);

  // A mistake is said in words.
  await page.getByLabel('Email').fill(ann);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('alert')).toContainText('at least 8 characters');

  // Members: Ann joins as a member, becomes an owner; Ben joins and leaves again.
  const project = await server.post('/api/v3/projects/', { name: `Admin ${stamp}` });
  const members = async () => (await server.get(`/api/v3/projects/${project.id}/members/`)).results as { id: number; email: string; role: string }[];
  await page.goto(`/#/projects/${project.id}/members`);
  await page.getByLabel('Account', { exact: true }).selectOption(ann);
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(ann);
  expect((await members()).find((m) => m.email === ann)?.role).toBe('member');
  await page.getByLabel(`Role of ${ann}`).selectOption('owner');
  await expect.poll(async () => (await members()).find((m) => m.email === ann)?.role).toBe('owner');
  await page.getByLabel('Account', { exact: true }).selectOption(ben);
  await page.getByLabel('Role', { exact: true }).selectOption('member');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(ben);
  await page.getByRole('button', { name: `Delete member ${ben}` }).click();
  await page.getByRole('group', { name: `Delete member ${ben}?` }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).not.toContainText(ben);
  expect((await members()).map((m) => m.email)).not.toContain(ben);
  // Members are picked from the accounts (issue 29 item 4): Ann, a member, is no longer offered; Ben, gone, is again.
  const offered = page.getByLabel('Account', { exact: true }).locator('option');
  await expect(offered.filter({ hasText: ann })).toHaveCount(0);
  await expect(offered.filter({ hasText: ben })).toHaveCount(1);
  await snapshot(page, info, 'members');

  // Assignment: two documents to Ann at once.
  for (const n of [1, 2]) await server.upload('/api/v3/documents/', { project: project.id, sync: 'true' }, { name: `doc-${n}.pdf`, data: await pdf(`Dokument ${n} ${stamp}`) });
  await page.getByRole('link', { name: 'Documents' }).click();
  await page.getByLabel('Select all documents on this page').check();
  await page.getByLabel('Set assignee of the selected documents').selectOption(ann);
  await expect(page.getByRole('status').filter({ hasText: 'Assignee changed: 2 documents.' })).toBeVisible();
  const docs = (await server.get(`/api/v3/documents/?project=${project.id}`)).results as { assignee_email: string | null }[];
  expect(docs.map((d) => d.assignee_email)).toEqual([ann, ann]);

  // Removing an account: Ben goes.
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: `Delete user ${ben}` }).click();
  await page.getByRole('group', { name: `Delete user ${ben}?` }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('table', { name: 'Users' })).not.toContainText(ben);
  expect((await users()).map((u) => u.email)).not.toContain(ben);

  // Setup: the new-category field clears after adding; a second "invoice" is refused; the setup is full width.
  await page.goto(`/#/projects/${project.id}/setup`);
  const field = page.getByLabel('New category');
  await field.fill('Invoice');
  await page.getByRole('button', { name: 'Add category' }).click();
  await expect(page.locator('.setup-list')).toContainText('Invoice');
  await expect(field).toHaveValue('');
  await field.fill('invoice');
  await page.getByRole('button', { name: 'Add category' }).click();
  await expect(page.getByText('A category named "Invoice" already exists in this project')).toBeVisible();
  expect((await server.get(`/api/v3/categories/?project=${project.id}`)).count).toBe(1);
  const setupWidth = (await page.locator('.setup').boundingBox())!.width;
  const tabsWidth = (await page.getByRole('navigation', { name: 'Project' }).boundingBox())!.width;
  expect(setupWidth).toBeGreaterThan(tabsWidth * 0.95);
});

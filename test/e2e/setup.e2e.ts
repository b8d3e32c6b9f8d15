// A project is set up through the setup tab (settings, categories, labels of every data type, a
// repeating label set), and the settings view shows the API address and replaces the token; after
// each step the API is asked what it holds.
import { expect, test, type Page } from '@playwright/test';
import { api, logIn, snapshot } from './helpers.ts';

const base = () => process.env.FOLIO_E2E_URL!;

async function addLabel(page: Page, name: string, dataType: string, sets: string[]) {
  const form = page.getByRole('form', { name: 'New label', exact: true });
  await form.getByLabel('Label name').fill(name);
  await form.getByLabel('Data type').selectOption(dataType);
  for (const set of sets) await form.getByRole('checkbox', { name: set, exact: true }).check();
  await form.getByRole('button', { name: 'Add label' }).click();
  await expect(page.getByRole('button', { name: `Edit label ${name}`, exact: true })).toBeVisible();
  await expect(form.getByLabel('Label name')).toHaveValue('');
}

test('set up a project: settings, categories, labels with data types, a repeating label set', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Setup ${Date.now()}` });
  await logIn(page);
  await page.goto(`/#/projects/${project.id}/setup`);
  await expect(page.getByRole('heading', { name: project.name })).toBeVisible();

  // Project settings: OCR languages must name one at least; the refusal shows under the field.
  const settings = page.getByRole('form', { name: 'Project', exact: true });
  await expect(settings.getByRole('checkbox', { name: 'German' })).toBeChecked();
  await settings.getByRole('checkbox', { name: 'German' }).uncheck();
  await settings.getByRole('checkbox', { name: 'English' }).uncheck();
  await settings.getByRole('button', { name: 'Save project' }).click();
  await expect(settings.getByText('Name at least one OCR language.')).toBeVisible();
  await settings.getByRole('checkbox', { name: 'German' }).check();
  await settings.getByLabel('Check multi-page uploads for several documents').check();
  await settings.getByRole('button', { name: 'Save project' }).click();
  await expect(settings.getByText('Saved.')).toBeVisible();
  const saved = await server.get(`/api/v3/projects/${project.id}/`);
  expect(saved.ocr_languages).toEqual(['deu']);
  expect(saved.splitting_enabled).toBe(true);

  // Categories: a blank name is refused in place; add two and a third that is renamed, then deleted.
  await page.getByRole('button', { name: 'Add category' }).click();
  await expect(page.getByText('This field may not be blank.')).toBeVisible();
  for (const name of ['Invoice', 'Payslip', 'Scratch']) {
    await page.getByLabel('New category').fill(name);
    await page.getByRole('button', { name: 'Add category' }).click();
    await expect(page.getByRole('button', { name: `Rename category ${name}` })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Rename category Scratch' }).click();
  await page.getByLabel('New name of category Scratch').fill('Scratch pad');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Delete category Scratch pad' }).click();
  await page.getByRole('group', { name: 'Delete category Scratch pad?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Scratch pad')).toHaveCount(0);
  const categories = (await server.get(`/api/v3/categories/?project=${project.id}`)).results as { id: number; name: string }[];
  expect(categories.map((c) => c.name).sort()).toEqual(['Invoice', 'Payslip']);
  const invoice = categories.find((c) => c.name === 'Invoice')!.id;

  // A repeating label set for the invoice's line items.
  const setForm = page.getByRole('form', { name: 'New label set', exact: true });
  await setForm.getByLabel('Label set name').fill('Line items');
  await setForm.getByLabel('Repeats (several per document)').check();
  await setForm.getByRole('checkbox', { name: 'Invoice', exact: true }).check();
  await setForm.getByRole('button', { name: 'Add label set' }).click();
  await expect(page.getByRole('button', { name: 'Edit label set Line items' })).toBeVisible();

  // Labels of every data type, in the category's own set or in the line items.
  await addLabel(page, 'Invoice date', 'Date', ['Invoice (category)']);
  await addLabel(page, 'Total', 'Positive Number', ['Invoice (category)']);
  await addLabel(page, 'Paid', 'True/False', ['Invoice (category)']);
  await addLabel(page, 'Tax rate', 'Percentage', ['Invoice (category)']);
  await addLabel(page, 'Description', 'Text', ['Line items (repeats)']);
  await addLabel(page, 'Amount', 'Number', ['Line items (repeats)']);
  await addLabel(page, 'Net pay', 'Number', ['Payslip (category)']);

  // A label name the project has already: the API's reason under the name field.
  const newLabel = page.getByRole('form', { name: 'New label', exact: true });
  await newLabel.getByLabel('Label name').fill('total');
  await newLabel.getByRole('button', { name: 'Add label' }).click();
  await expect(newLabel.getByText('A label named "Total" already exists in this project.')).toBeVisible();
  await expect(newLabel.getByLabel('Label name')).toHaveAttribute('aria-invalid', 'true');

  // Edit a label: Total becomes a Number, also in the line items.
  await page.getByRole('button', { name: 'Edit label Total' }).click();
  const edit = page.getByRole('form', { name: 'Edit label Total' });
  await edit.getByLabel('Data type').selectOption('Number');
  await edit.getByRole('checkbox', { name: 'Line items (repeats)', exact: true }).check();
  await edit.getByRole('button', { name: 'Save label' }).click();
  await expect(edit).toHaveCount(0);

  const labels = (await server.get(`/api/v3/labels/?project=${project.id}`)).results as { name: string; data_type: string; label_sets: number[]; categories: number[] }[];
  const byName = Object.fromEntries(labels.map((l) => [l.name, l]));
  expect(Object.fromEntries(labels.map((l) => [l.name, l.data_type]))).toEqual({
    'Invoice date': 'Date', Total: 'Number', Paid: 'True/False', 'Tax rate': 'Percentage', Description: 'Text', Amount: 'Number', 'Net pay': 'Number',
  });
  const sets = (await server.get(`/api/v3/label-sets/?project=${project.id}`)).results as { id: number; name: string; is_default: boolean; has_multiple_sections: boolean; categories: number[]; labels: number[] }[];
  const lineItems = sets.find((s) => s.name === 'Line items')!;
  expect(lineItems).toMatchObject({ is_default: false, has_multiple_sections: true, categories: [invoice] });
  expect(byName['Amount'].label_sets).toEqual([lineItems.id]);
  expect(byName['Total'].label_sets.sort()).toEqual([invoice, lineItems.id].sort());
  expect(byName['Invoice date'].categories).toEqual([invoice]);
  expect(sets.find((s) => s.id === invoice)!.has_multiple_sections).toBe(false);
  await expect(page.getByText('Labels: Invoice date, Total, Paid, Tax rate')).toBeVisible();
  await snapshot(page, info, 'setup');
});

test('settings: API address, the token copied and regenerated, OCR languages', async ({ page, context }, info) => {
  // A user of its own: regenerating the administrator's token would break other test files' clients.
  const email = `settings-${Date.now()}@folio.test`;
  const password = 'settings-password-1';
  await (await api()).post('/api/v3/users/', { email, password });
  const tokenOf = async () => {
    const res = await fetch(`${base()}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: email, password }) });
    return ((await res.json()) as { token: string }).token;
  };
  const oldToken = await tokenOf();

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();

  await expect(page.getByLabel('API address', { exact: true })).toHaveValue(new URL(base()).origin);
  const token = page.getByLabel('Your API token');
  await expect(token).toHaveAttribute('type', 'password');
  await expect(token).toHaveValue(oldToken);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(token).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Copy API token' }).click();
  await expect(page.getByText('Copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldToken);
  await expect(page.getByRole('link', { name: 'Open the API reference (Swagger UI)' })).toHaveAttribute('href', new RegExp(`^/swagger/\\?fk=[0-9.]+&sig=[\\w-]+#token=${oldToken}$`));
  await expect(page.getByRole('list', { name: 'Installed OCR languages' })).toContainText('German');
  await expect(page.getByRole('list', { name: 'Installed OCR languages' })).toContainText('English');

  // Regenerate: a wrong password changes nothing; the right one replaces the token everywhere.
  await page.getByRole('button', { name: 'Regenerate token…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Regenerate the API token?' });
  await expect(dialog.getByText('Scripts and tools that use the current token stop working')).toBeVisible();
  await dialog.getByLabel('Your password').fill('not-the-password');
  await dialog.getByRole('button', { name: 'Regenerate token' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  expect(await tokenOf()).toBe(oldToken);
  await snapshot(page, info, 'settings-regenerate');
  await dialog.getByLabel('Your password').fill(password);
  await dialog.getByRole('button', { name: 'Regenerate token' }).click();
  await expect(page.getByText('A new token was made.')).toBeVisible();
  await expect(dialog).toBeHidden();

  const newToken = await tokenOf();
  expect(newToken).not.toBe(oldToken);
  await expect(token).toHaveValue(newToken);
  const old = await fetch(`${base()}/api/v3/auth/me/`, { headers: { Authorization: `Token ${oldToken}` } });
  expect(old.status).toBe(401);
  // The window carries on with the new token.
  await page.getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expect(page.getByText('No projects yet.')).toBeVisible();
  await snapshot(page, info, 'settings');
});

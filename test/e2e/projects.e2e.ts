// A reviewer logs in, creates a project and opens it; the API then holds the project.
import { expect, test } from '@playwright/test';
import { api, logIn, snapshot } from './helpers.ts';

test('log in, create a project and open it', async ({ page }, info) => {
  await logIn(page);
  const name = `Invoices ${Date.now()}`;
  await page.getByLabel('New project').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  const link = page.getByRole('link', { name });
  await expect(link).toBeVisible();
  await snapshot(page, info, 'projects');

  const listed = await (await api()).get(`/api/v3/projects/?name=${encodeURIComponent(name)}`);
  expect(listed.count).toBe(1);

  await link.click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  expect(page.url()).toContain(`#/projects/${listed.results[0].id}`);
});

// A document that could not be processed (111) is retried from its page in the workstation: the
// "Retry processing" button queues it again, the page follows it through processing, and here (a PDF that
// forbids changes and needs OCR, which no retry can mend) it ends in 111 again with its reason.
import { expect, test } from '@playwright/test';
import { encryptedPdf } from '../fixtures/pdfSamples.ts';
import { api, logIn, snapshot } from './helpers.ts';

test('retry a document that could not be processed from its page', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Retry ${Date.now()}` });
  const doc = await server.upload('/api/v3/documents/', { project: project.id }, { name: 'restricted.pdf', data: new Uint8Array(encryptedPdf({ userPassword: '', ownerPassword: 'owner', text: '' })) });
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc.id}/`)).status_data, { timeout: 90_000 }).toBe(111);
  const jobsBefore = (await server.get(`/api/v3/documents/${doc.id}/`)).updated_at;

  await logIn(page);
  await page.goto(`/#/documents/${doc.id}`);
  await expect(page.getByRole('alert')).toContainText('This document could not be processed: This PDF forbids changes');
  await snapshot(page, info, 'failed-document');
  await page.getByRole('button', { name: 'Retry processing' }).click();
  // Queued again: the API says so, and the page ends on the reason once more.
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc.id}/`)).updated_at, { timeout: 15_000 }).not.toBe(jobsBefore);
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc.id}/`)).status_data, { timeout: 90_000 }).toBe(111);
  await expect(page.getByRole('alert')).toContainText('forbids changes', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Retry processing' })).toBeEnabled();
});

// npm run bench:ui: the document viewer in Chromium against a real `folio serve`: time to the first page
// of a 300-page born-digital PDF, frames per second while scrolling through it, and the time to draw a
// page's 500 annotation boxes. Prints figures; asserts nothing. Uses the viewer harness (the Viewer
// alone, embedded as the review view embeds it) and the e2e tests' Chromium settings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import e2eConfig from '../e2e/playwright.config.ts';
import { buildViewerHarness, serveViewerHarness, textPdf, uploadProcessed } from '../e2e/viewerHarness.ts';
import { startFolio } from '../helpers/processes.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 300);
const LINES = 50;
const BOXES = 500;
const ADMIN = { email: 'bench@folio.local', password: 'bench-password' };
/** Scripted scrolls: px/s for how long (reading pace, then skimming). */
const SCROLLS = [
  { name: 'reading (1,500 px/s)', speed: 1500, seconds: 8 },
  { name: 'skimming (6,000 px/s)', speed: 6000, seconds: 8 },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (v: number) => `${v.toFixed(0)} ms`;

async function json(base: string, token: string, method: string, url: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(token ? { Authorization: `Token ${token}` } : {}) };
  const res = await fetch(`${base}${url}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const out = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${JSON.stringify(out)}`);
  return out;
}

/** A project with 10 labels in a repeating label set, and 500 one-word annotations on page 1 of the document. */
async function annotateFirstPage(base: string, token: string, project: number, category: number, documentId: number): Promise<void> {
  const labels: number[] = [];
  for (let i = 0; i < 10; i++) labels.push((await json(base, token, 'POST', '/api/v3/labels/', { project, name: `Label ${i}`, categories: [category] })).id);
  const set = await json(base, token, 'POST', '/api/v3/label-sets/', { project, name: 'Line item', categories: [category], labels, has_multiple_sections: true });
  const words = (await json(base, token, 'GET', `/api/v3/documents/${documentId}/pages/1/`)).entities as { x0: number; x1: number; y0: number; y1: number }[];
  if (words.length < BOXES) throw new Error(`page 1 has ${words.length} words, ${BOXES} needed`);
  let annotationSet: number | undefined;
  for (let i = 0; i < BOXES; i++) {
    const w = words[i];
    const span = [{ page_index: 0, x0: w.x0 - 0.3, x1: w.x1 + 0.3, y0: w.y0 - 0.5, y1: w.y1 + 0.5 }];
    // Ten labels per annotation set, then a new set of the repeating label set.
    const where = i % labels.length === 0 ? { label_set: set.id } : { annotation_set: annotationSet };
    annotationSet = (await json(base, token, 'POST', '/api/v3/annotations/', { document: documentId, label: labels[i % labels.length], span, ...where })).annotation_set;
  }
}

async function openViewer(page: Page, url: string): Promise<{ sinceNavigation: number; sinceOpen: number }> {
  await page.goto(url);
  await page.locator('.viewer-page[data-page-number="1"][data-rendered]').waitFor({ timeout: 60_000 });
  return page.evaluate(() => {
    const first = performance.getEntriesByName('folio-viewer-first-page')[0];
    const open = performance.getEntriesByName('harness-open')[0];
    return { sinceNavigation: first.startTime, sinceOpen: first.startTime - open.startTime };
  });
}

/** Opens another document in the same window (`#document=<id>`) and times it to its first page. */
async function switchTo(page: Page, documentId: number): Promise<number> {
  await page.evaluate((id) => (location.hash = `document=${id}`), documentId);
  return page.waitForFunction((id) => {
    const done = performance.getEntriesByName('folio-viewer-first-page').filter((m) => (m as PerformanceMark).detail?.documentId === id).pop();
    const open = performance.getEntriesByName('harness-open').filter((m) => (m as PerformanceMark).detail?.documentId === id).pop();
    return done && open && done.startTime > open.startTime ? done.startTime - open.startTime : null;
  }, documentId, { timeout: 60_000 }).then((h) => h.jsonValue() as Promise<number>);
}

/** Scrolls the pages at `speed` px/s for `seconds`, moving the scroll position every frame, and counts the frames. */
function scrollAndCount(page: Page, speed: number, seconds: number) {
  return page.evaluate(
    ({ speed, seconds }) =>
      new Promise<{ frames: number; elapsed: number; p95: number; longFrames: number; pagesPassed: number; rendered: number }>((resolve) => {
        const el = document.querySelector<HTMLElement>('.viewer-scroller')!;
        const startTop = el.scrollTop;
        const gaps: number[] = [];
        const rendered = new Set<string>();
        const t0 = performance.now();
        let last = t0;
        const seen = () => document.querySelectorAll<HTMLElement>('.viewer-page[data-rendered]').forEach((p) => rendered.add(p.dataset.pageNumber!));
        const frame = (now: number) => {
          gaps.push(now - last);
          last = now;
          el.scrollTop = startTop + ((now - t0) / 1000) * speed;
          if (gaps.length % 10 === 0) seen();
          if (now - t0 < seconds * 1000) requestAnimationFrame(frame);
          else {
            gaps.shift(); // the wait for the first frame is not a frame
            const sorted = [...gaps].sort((a, b) => a - b);
            const current = Number(document.querySelector('output[aria-label="Current page"]')?.textContent ?? 0);
            resolve({
              frames: gaps.length,
              elapsed: now - t0,
              p95: sorted[Math.floor(sorted.length * 0.95)],
              longFrames: gaps.filter((g) => g > 1000 / 30).length,
              pagesPassed: current,
              rendered: rendered.size,
            });
          }
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(frame);
        });
      }),
    { speed, seconds },
  );
}

/** Shows the 500 boxes of page 1 (the "Show boxes" switch) and times it to the next painted frame. */
function timeBoxes(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ ms: number; boxes: number }>((resolve) => {
        const toggle = document.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
        const t0 = performance.now();
        toggle.click(); // React commits a click's update before the event returns
        requestAnimationFrame(() =>
          setTimeout(() => resolve({ ms: performance.now() - t0, boxes: document.querySelectorAll('.viewer-page[data-page-number="1"] .viewer-box').length }), 0),
        );
      }),
  );
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-ui-'));
  const folio = await startFolio({ dataDir, env: { FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password } });
  // Interrupted (Ctrl+C): the server is a child process and would outlive the script.
  process.once('SIGINT', () => {
    folio.child.kill('SIGTERM');
    process.exit(130);
  });
  let harness: Awaited<ReturnType<typeof serveViewerHarness>> | null = null;
  let harnessDir: string | null = null;
  const browser = await chromium.launch(e2eConfig.use!.launchOptions);
  try {
    const base = folio.url;
    const { token } = await json(base, '', 'POST', '/api/v3/auth/', { username: ADMIN.email, password: ADMIN.password });
    const project = await json(base, token, 'POST', '/api/v3/projects/', { name: 'UI bench' });
    const category = await json(base, token, 'POST', '/api/v3/categories/', { project: project.id, name: 'Report' });

    let t = performance.now();
    const pdf = await textPdf(PAGES, LINES);
    const fields = { project: project.id, category: category.id };
    const [doc, other, dir] = await Promise.all([
      uploadProcessed(base, token, fields, pdf, 'bench-300.pdf'),
      uploadProcessed(base, token, fields, await textPdf(2, LINES), 'bench-2.pdf'),
      buildViewerHarness(),
    ]);
    harnessDir = dir;
    console.log(`set-up: ${PAGES}-page PDF (${(pdf.length / 1e6).toFixed(1)} MB) uploaded and processed, harness built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    await annotateFirstPage(base, token, project.id, category.id, doc.id);
    console.log(`set-up: ${BOXES} annotations on page 1 in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    harness = await serveViewerHarness(base, dir);

    const context = await browser.newContext({ viewport: e2eConfig.use!.viewport! });
    await context.addInitScript((tok) => sessionStorage.setItem('folio.token', tok), token);
    // tsx compiles this file keeping function names (a `__name` helper) into the functions page.evaluate sends.
    await context.addInitScript('window.__name = (f) => f');
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('page error:', err.message));

    // Time to first page: a page load (pdf.js and its worker start with the page), the first one cold;
    // then going from another document to this one in the same window, as the review view does.
    const loads: { sinceNavigation: number; sinceOpen: number }[] = [];
    for (let i = 0; i < 5; i++) loads.push(await openViewer(page, harness.pageUrl(doc.id, { boxes: 'off' })));
    const switches: number[] = [];
    for (let i = 0; i < 5; i++) {
      await switchTo(page, other.id);
      switches.push(await switchTo(page, doc.id));
    }

    // Scrolling: from the top, each speed three times (the viewer mounts, renders and drops pages as it goes).
    const scrolls: { name: string; runs: Awaited<ReturnType<typeof scrollAndCount>>[] }[] = [];
    const renders: number[] = [];
    for (const s of SCROLLS) {
      const runs = [];
      for (let i = 0; i < 3; i++) {
        await openViewer(page, harness.pageUrl(doc.id, { boxes: 'off' }));
        runs.push(await scrollAndCount(page, s.speed, s.seconds));
        renders.push(...(await page.evaluate(() => performance.getEntriesByName('folio-viewer-page-render').map((m) => m.duration))));
      }
      scrolls.push({ name: s.name, runs });
    }

    // 500 boxes on page 1: switched on (and off again) five times over the rendered page.
    await openViewer(page, harness.pageUrl(doc.id, { boxes: 'off' }));
    const boxTimes: number[] = [];
    let boxCount = 0;
    for (let i = 0; i < 5; i++) {
      const on = await timeBoxes(page);
      boxTimes.push(on.ms);
      boxCount = on.boxes;
      await timeBoxes(page); // off again
    }
    // And the page with its boxes, from opening the document.
    const withBoxes = await openViewer(page, harness.pageUrl(doc.id));

    const fpsOf = (r: { frames: number; elapsed: number }) => (r.frames / r.elapsed) * 1000;
    const warm = loads.slice(1);
    console.log(`\nFolio UI benchmark: Chromium ${browser.version()} headless (software rendering), viewport ${e2eConfig.use!.viewport!.width}x${e2eConfig.use!.viewport!.height}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} (the figures move with it)`);
    console.log(`document: ${PAGES} pages, ${LINES} lines each (born-digital, pdf-lib)`);
    console.log(`\ntime to first page (page 1 painted by pdf.js)`);
    console.log(`  page load, first (cold):       ${ms(loads[0].sinceOpen)} from opening the document (${ms(loads[0].sinceNavigation)} from navigation)`);
    console.log(`  page load, median of ${warm.length}:        ${ms(median(warm.map((o) => o.sinceOpen)))} from opening the document (${ms(median(warm.map((o) => o.sinceNavigation)))} from navigation)`);
    console.log(`  from another document, median of ${switches.length}: ${ms(median(switches))} (runs: ${switches.map((v) => v.toFixed(0)).join(', ')} ms)`);
    console.log(`  with ${BOXES} boxes on page 1:       ${ms(withBoxes.sinceOpen)} from opening the document`);
    console.log(`\nscrolling (scroll position moved every frame; three runs of ${SCROLLS[0].seconds} s each)`);
    for (const s of scrolls) {
      const mid = [...s.runs].sort((a, b) => fpsOf(a) - fpsOf(b))[1];
      console.log(`  ${s.name.padEnd(24)} ${fpsOf(mid).toFixed(1)} fps median (runs ${s.runs.map((r) => fpsOf(r).toFixed(1)).join(', ')}), p95 frame ${mid.p95.toFixed(1)} ms, ${mid.longFrames} frames over 33 ms, to page ${mid.pagesPassed}, ${mid.rendered} pages painted on the way`);
    }
    const sorted = [...renders].sort((a, b) => a - b);
    console.log(`  pdf.js page renders: ${renders.length}, median ${ms(median(renders))}, p95 ${ms(sorted[Math.floor(sorted.length * 0.95)] ?? 0)} (wall time, in slices between frames)`);
    console.log(`\n${boxCount} annotation boxes on a rendered page: ${ms(median(boxTimes))} median to the painted frame (runs: ${boxTimes.map((v) => v.toFixed(0)).join(', ')} ms)`);
    const firstPage = median(switches);
    const fps = Math.min(...scrolls.map((s) => fpsOf([...s.runs].sort((a, b) => fpsOf(a) - fpsOf(b))[1])));
    console.log(`\nAims: first page < 1 s (${ms(firstPage)}: ${firstPage < 1000 ? 'met' : 'NOT met'}), scrolling 50+ fps (${fps.toFixed(1)}: ${fps >= 50 ? 'met' : 'NOT met'}), ${BOXES} boxes < 100 ms (${ms(median(boxTimes))}: ${median(boxTimes) < 100 ? 'met' : 'NOT met'}).`);
  } finally {
    await browser.close();
    await harness?.close();
    await folio.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (harnessDir) fs.rmSync(harnessDir, { recursive: true, force: true });
  }
}

await main();

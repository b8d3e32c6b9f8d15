// The team server's documented production shape (compose.yaml, Dockerfile, README "Team server") names
// only settings Folio really reads, and runs the process roles the CLI really has. No Docker engine runs
// here, so the images are not built: this checks what can drift silently, a renamed or invented setting.
import fs from 'node:fs';
import path from 'node:path';
import { load as loadYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Every source file of the program (main/, bin/), comments removed, as one text. */
function programText(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.(ts|mts|mjs|cjs|js)$/.test(e.name)) files.push(rel);
    }
  };
  walk('main');
  walk('bin');
  return files
    .map((f) =>
      read(f)
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .filter((line) => !line.trim().startsWith('//'))
        .join('\n'),
    )
    .join('\n');
}

const settingsIn = (text: string) => [...new Set(text.match(/\bFOLIO_[A-Z0-9_]+\b/g) ?? [])].sort();

/** Applies YAML merge keys (`<<: *anchor`) as docker compose does; this js-yaml leaves them as keys. */
function resolveMerges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveMerges);
  if (!value || typeof value !== 'object') return value;
  const { '<<': base, ...own } = value as Record<string, unknown>;
  const merged: Record<string, unknown> = {};
  for (const b of base === undefined ? [] : Array.isArray(base) ? base : [base]) Object.assign(merged, resolveMerges(b));
  for (const [k, v] of Object.entries(own)) merged[k] = resolveMerges(v);
  return merged;
}

interface Service {
  command?: string[];
  environment?: Record<string, string>;
  image?: string;
}

describe('compose.yaml and the Dockerfile', () => {
  const compose = resolveMerges(loadYaml(read('compose.yaml'))) as { services: Record<string, Service> };
  const dockerfile = read('Dockerfile');
  const code = programText();

  it('name only settings the code reads', () => {
    const named = settingsIn(read('compose.yaml') + '\n' + dockerfile);
    expect(named.length).toBeGreaterThan(10);
    const unread = named.filter((name) => !new RegExp(`\\b${name}\\b`).test(code));
    expect(unread).toEqual([]);
  });

  it('run the API without workers and the workers without HTTP, on PostgreSQL and S3', () => {
    const { api, worker, postgres } = compose.services;
    expect(api.command).toEqual(['serve', '--no-workers']);
    expect(worker.command).toEqual(['worker']);
    expect(postgres.image).toMatch(/^postgres:15/);
    for (const service of [api, worker]) {
      const env = service.environment ?? {};
      expect(env.FOLIO_DATABASE_URL).toMatch(/^postgres:\/\//);
      for (const name of ['FOLIO_S3_ENDPOINT', 'FOLIO_S3_BUCKET', 'FOLIO_S3_REGION', 'FOLIO_S3_ACCESS_KEY_ID', 'FOLIO_S3_SECRET_ACCESS_KEY']) {
        expect(env[name], name).toBeTruthy();
      }
    }
    // The roles are commands of the CLI (its usage text lists them).
    const usage = read('main/cli.ts');
    expect(usage).toMatch(/^\s+serve --no-workers\s/m);
    expect(usage).toMatch(/^\s+worker\s/m);
    expect(dockerfile).toMatch(/CMD \["serve", "--no-workers"\]/);
    expect(dockerfile).toMatch(/tesseract-ocr-osd/);
    expect(dockerfile).toMatch(/FOLIO_RUN=compiled/);
  });

  it('are described in the README with every setting they use', () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Team server'), readme.indexOf('\n## ', readme.indexOf('## Team server') + 5));
    expect(section.length).toBeGreaterThan(500);
    const missing = settingsIn(read('compose.yaml')).filter((name) => !section.includes(name));
    expect(missing).toEqual([]);
  });
});

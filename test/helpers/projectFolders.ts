// Project folders for tests: small copies of the payslip folder to spoil, and a comparison of two folders
// "ids aside": every id is replaced by its rank among the ids of its kind in its folder, so two exports of
// the same data compare equal exactly when nothing but the store's numbering differs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PAYSLIPS_DIR } from '../fixtures/payslipPdf.ts';
import { readZipEntry } from '../fixtures/zip.ts';

export { PAYSLIPS_DIR };

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** A writable copy of the payslip folder with only the documents `ids` (all when none are named). */
export function payslipCopy(ids?: number[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-folder-'));
  fs.cpSync(PAYSLIPS_DIR, dir, { recursive: true });
  for (const f of walk(dir)) fs.chmodSync(path.join(dir, f), 0o644);
  for (const d of [dir, ...walkDirs(dir)]) fs.chmodSync(d, 0o755);
  if (ids) {
    const meta = readJson(path.join(dir, 'documents_meta.json5')).filter((m: { id: number }) => ids.includes(m.id));
    fs.writeFileSync(path.join(dir, 'documents_meta.json5'), JSON.stringify(meta, null, 2));
    for (const d of fs.readdirSync(path.join(dir, 'documents'))) if (!ids.includes(Number(d))) fs.rmSync(path.join(dir, 'documents', d), { recursive: true });
  }
  return dir;
}

export function walk(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, child) : [child];
  });
}

function walkDirs(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => [path.join(dir, e.name), ...walkDirs(path.join(dir, e.name))]);
}

type Kind = 'document' | 'labelSet' | 'label' | 'annotationSet' | 'annotation' | 'page' | 'missing' | 'project';

/** Which key holds which kind of id, per file. */
const ID_KEYS: Record<string, Record<string, Kind>> = {
  'documents_meta.json5': { id: 'document', category: 'labelSet', category_template: 'labelSet' },
  'annotation_sets.json5': { id: 'annotationSet', section_label: 'labelSet' },
  'annotations.json5': { id: 'annotation', label: 'label', section: 'annotationSet', section_label_id: 'labelSet' },
  'pages.json5': { id: 'page' },
  'missing_annotations.json5': { id: 'missing', label: 'label', label_set: 'labelSet', annotation_set: 'annotationSet' },
  'folio_project.json5': { id: 'project' },
};

/** The folder with every id replaced by its rank: file name -> canonical bytes (JSON re-serialised). */
export function canonicalFolder(dir: string): Map<string, string> {
  const files = walk(dir).sort();
  const seen: Record<Kind, Set<number>> = { document: new Set(), labelSet: new Set(), label: new Set(), annotationSet: new Set(), annotation: new Set(), page: new Set(), missing: new Set(), project: new Set() };
  const json = new Map<string, any>();
  for (const f of files) if (f.endsWith('.json5')) json.set(f, readJson(path.join(dir, f)));
  const collect = (file: string, v: any) => {
    const keys = ID_KEYS[path.basename(file)];
    const items = Array.isArray(v) ? v : [v];
    for (const item of items) for (const [k, kind] of Object.entries(keys ?? {})) if (typeof item?.[k] === 'number') seen[kind].add(item[k]);
  };
  for (const [f, v] of json) collect(f, v);
  for (const c of json.get('categories_and_label_data.json5') ?? []) {
    seen.labelSet.add(c.id);
    for (const s of c.schema) {
      seen.labelSet.add(s.id);
      for (const l of s.labels) seen.label.add(l.id);
    }
  }
  const rank = Object.fromEntries(Object.entries(seen).map(([k, ids]) => [k, new Map([...ids].sort((a, b) => a - b).map((id, i) => [id, i + 1]))])) as Record<Kind, Map<number, number>>;
  const to = (kind: Kind, id: unknown) => (typeof id === 'number' ? `${kind}#${rank[kind].get(id) ?? `unknown ${id}`}` : id);
  const out = new Map<string, string>();
  for (const f of files) {
    const name = f.replace(/^documents\/(\d+)\//, (_, id) => `documents/${to('document', Number(id))}/`);
    if (!f.endsWith('.json5') && !f.endsWith('bbox.zip')) {
      out.set(name, fs.readFileSync(path.join(dir, f)).toString('base64'));
      continue;
    }
    if (f.endsWith('bbox.zip')) {
      out.set(name, readZipEntry(fs.readFileSync(path.join(dir, f)), 'bbox.json5').toString('utf8'));
      continue;
    }
    let v = json.get(f);
    const keys = ID_KEYS[path.basename(f)];
    if (keys) {
      v = (Array.isArray(v) ? v : [v]).map((item: any) => {
        const copy = { ...item };
        for (const [k, kind] of Object.entries(keys)) if (k in copy) copy[k] = to(kind, copy[k]);
        if (typeof copy.file_url === 'string') copy.file_url = copy.file_url.replace(/\d+/, (id: string) => String(to('document', Number(id))));
        if (typeof copy.image === 'string') copy.image = copy.image.replace(/\d+/, (id: string) => String(to('page', Number(id))));
        return copy;
      });
    }
    if (f === 'categories_and_label_data.json5') {
      v = v.map((c: any) => ({ ...c, id: to('labelSet', c.id), schema: c.schema.map((s: any) => ({ ...s, id: to('labelSet', s.id), labels: s.labels.map((l: any) => ({ ...l, id: to('label', l.id) })) })) }));
    }
    out.set(name, JSON.stringify(v, null, 1));
  }
  return out;
}

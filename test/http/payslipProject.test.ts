// The payslip project helper against the real server: a few dataset documents uploaded and annotated
// through the API carry exactly the dataset's reviewed annotations (labels, label sets, texts, offsets,
// review states and the grouping into annotation sets), and the taxonomy is the dataset's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDatasetDocument } from '../fixtures/payslipDataset.ts';
import { alignDocument, createPayslipProject, payslipCategories, type PayslipProject } from '../helpers/payslipProject.ts';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';

const CATEGORY = 63;
let s: TestServer;
let p: PayslipProject;

beforeAll(async () => {
  s = await startTestServer();
  p = await createPayslipProject(s.admin, { categories: [CATEGORY], datasetStatuses: [2], limit: 4 });
}, 120_000);
afterAll(() => s?.close());

const inverse = (m: Map<number, number>) => new Map([...m].map(([k, v]) => [v, k]));
const strip = (t: string) => t.replace(/\s+/g, '');

describe('createPayslipProject', () => {
  it('creates the category, its label sets and its labels as the dataset has them', async () => {
    const [category] = payslipCategories([CATEGORY]);
    expect([...p.categories.keys()]).toEqual([CATEGORY]);
    expect(p.labelSets.get(CATEGORY)).toBe(p.categories.get(CATEGORY));
    const sets = (await s.admin.get(`/api/v3/label-sets/?project=${p.projectId}&limit=100`)).body.results;
    const setOf = inverse(p.labelSets);
    expect(sets.map((ls: any) => [setOf.get(ls.id), ls.name, ls.has_multiple_sections]).sort()).toEqual(
      category.labelSets.map((ls) => [ls.id, ls.name, ls.hasMultipleSections]).sort(),
    );
    const labels = (await s.admin.get(`/api/v3/labels/?project=${p.projectId}&limit=100`)).body.results;
    const labelOf = inverse(p.labels);
    expect(labels.map((l: any) => [labelOf.get(l.id), l.name, l.data_type, l.label_sets.map((id: number) => setOf.get(id)).sort()]).sort()).toEqual(
      category.labels.map((l) => [l.id, l.name, l.dataType, [...l.labelSetIds].sort()]).sort(),
    );
  });

  it('uploads the documents processed, in their category and dataset status', async () => {
    expect(p.documents).toHaveLength(4);
    for (const d of p.documents) {
      const doc = (await s.admin.get(`/api/v3/documents/${d.folioId}/`)).body;
      expect(doc).toMatchObject({ status_data: 2, category: p.categories.get(CATEGORY), dataset_status: 2, project: p.projectId });
      expect(d).toMatchObject({ datasetStatus: 2, categoryId: CATEGORY });
    }
  });

  it("creates the dataset's reviewed annotations at Folio's offsets, grouped in the dataset's sets", async () => {
    const labelOf = inverse(p.labels);
    const setOf = inverse(p.labelSets);
    let repeatedSets = 0;
    for (const d of p.documents) {
      const gold = loadDatasetDocument(d.datasetId)!;
      const alignment = await alignDocument(s.admin, d.folioId, gold);
      const made = (await s.admin.get(`/api/v3/annotations/?document=${d.folioId}&limit=1000`)).body.results as any[];
      expect(made).toHaveLength(gold.annotations.length);

      // Each annotation read back in the dataset's terms: label, label set, text, range, review state.
      const datasetRange = (a: any) => {
        const offsets = alignment.chars.filter((ch) => ch.offset >= a.start_offset && ch.offset < a.end_offset).map((ch) => alignment.toDataset.get(ch.offset)!);
        return [Math.min(...offsets), Math.max(...offsets) + 1];
      };
      const key = (label: number, labelSet: number, text: string, [start, end]: number[], correct: boolean) => `${label}|${labelSet}|${strip(text)}|${start}-${end}|${correct}`;
      const madeKeys = new Map(made.map((a) => [a.id, key(labelOf.get(a.label.id)!, setOf.get(a.label_set.id)!, a.offset_string, datasetRange(a), a.is_correct)]));
      const goldKey = (a: (typeof gold.annotations)[number]) =>
        key(a.labelId, a.labelSetId, a.text, [Math.min(...(a.spans ?? [a]).map((x) => x.startOffset)), Math.max(...(a.spans ?? [a]).map((x) => x.endOffset))], a.correct);
      expect([...madeKeys.values()].sort()).toEqual(gold.annotations.map(goldKey).sort());

      for (const a of made) {
        expect(a.revised).toBe(true);
        expect(a.review_state).toBe(a.is_correct ? 'Accepted' : 'Declined');
        // Every span's text is Folio's text at its offsets.
        for (const sp of a.span) expect(alignment.text.slice(sp.start_offset, sp.end_offset)).toBe(sp.offset_string);
      }

      // The same partition into annotation sets as the dataset's.
      const groups = (entries: [string | number, string][]) => {
        const bySet = new Map<string | number, string[]>();
        for (const [set, k] of entries) bySet.set(set, [...(bySet.get(set) ?? []), k]);
        return [...bySet.values()].map((g) => g.sort().join(' ; ')).sort();
      };
      expect(groups(made.map((a) => [a.annotation_set, madeKeys.get(a.id)!]))).toEqual(groups(gold.annotations.map((a) => [a.annotationSetKey, goldKey(a)])));
      const setsPerLabelSet = new Map<number, Set<number>>();
      for (const a of made) setsPerLabelSet.set(a.label_set.id, (setsPerLabelSet.get(a.label_set.id) ?? new Set()).add(a.annotation_set));
      repeatedSets += [...setsPerLabelSet.values()].filter((ids) => ids.size > 1).length;
    }
    // The documents exercise repeating label sets (several Brutto-Bezug sets on one payslip).
    expect(repeatedSets).toBeGreaterThan(0);
  });
});

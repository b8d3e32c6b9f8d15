// Spec 2.8 (each row of the table), 7.1 and 7.2 as one table of requests and decisions.
import { describe, expect, it } from 'vitest';
import { decideAnnotationSet, type AnnotationSetFacts, type LabelSetFacts, type SetDecision, type SetRequest } from '../../main/domain/annotationSetRules.ts';

const doc = { id: 10, projectId: 1, categoryId: 100 };
const repeating: LabelSetFacts = { id: 20, name: 'Line items', projectId: 1, hasMultipleSections: true, categoryIds: [100], labelIds: [1, 2] };
const single: LabelSetFacts = { id: 30, name: 'Header', projectId: 1, hasMultipleSections: false, categoryIds: [100], labelIds: [1, 3] };
const otherCategory: LabelSetFacts = { ...single, id: 40, name: 'Other', categoryIds: [200] };
const otherProject: LabelSetFacts = { ...single, id: 50, projectId: 2 };
const setOf = (id: number, ls: LabelSetFacts, documentId = doc.id): AnnotationSetFacts => ({ id, documentId, labelSetId: ls.id });

type Row = [string, Partial<SetRequest>, SetDecision | { kind: 'refuse'; field: string; match: RegExp }];

const rows: Row[] = [
  // table 2.8
  ['repeating, new set wanted: label_set creates one', { labelSetId: 20, labelSet: repeating, existingSets: [setOf(1, repeating)] },
    { kind: 'create', labelSetId: 20, rule: 'repeating: new set by label_set' }],
  ['repeating, existing set B: annotation_set re-uses it', { annotationSetId: 1, annotationSet: setOf(1, repeating), labelSet: repeating },
    { kind: 'reuse', annotationSetId: 1, rule: 'repeating: existing set by annotation_set' }],
  ['single, set B exists: annotation_set re-uses it', { annotationSetId: 2, annotationSet: setOf(2, single), labelSet: single },
    { kind: 'reuse', annotationSetId: 2, rule: 'single: existing set by annotation_set' }],
  ['single, set B exists: label_set re-uses B (7.2: never a second set)', { labelSetId: 30, labelSet: single, existingSets: [setOf(2, single)] },
    { kind: 'reuse', annotationSetId: 2, rule: 'single: existing set re-used for label_set' }],
  ['single, no set yet: label_set creates the first', { labelSetId: 30, labelSet: single, existingSets: [] },
    { kind: 'create', labelSetId: 30, rule: 'single: first set created for label_set' }],
  // 7.1
  ['neither annotation_set nor label_set (7.1)', {}, { kind: 'refuse', field: 'annotation_set', match: /annotation_set.*label_set/ }],
  // refusals around the table
  ['annotation_set of another document', { annotationSetId: 3, annotationSet: setOf(3, single, 99), labelSet: single },
    { kind: 'refuse', field: 'annotation_set', match: /not an annotation set of document 10/ }],
  ['unknown annotation_set', { annotationSetId: 4 }, { kind: 'refuse', field: 'annotation_set', match: /not an annotation set/ }],
  ['annotation_set and label_set disagree', { annotationSetId: 2, annotationSet: setOf(2, single), labelSetId: 20, labelSet: single },
    { kind: 'refuse', field: 'label_set', match: /belongs to label set 30/ }],
  ['label not in the annotation set\'s label set', { labelId: 2, annotationSetId: 2, annotationSet: setOf(2, single), labelSet: single },
    { kind: 'refuse', field: 'label', match: /not in label set "Header"/ }],
  ['label not in the label set', { labelId: 3, labelSetId: 20, labelSet: repeating }, { kind: 'refuse', field: 'label', match: /not in label set "Line items"/ }],
  ['unknown label_set', { labelSetId: 60 }, { kind: 'refuse', field: 'label_set', match: /Invalid pk "60"/ }],
  ['label_set of another project (answered like an unknown id)', { labelSetId: 50, labelSet: otherProject }, { kind: 'refuse', field: 'label_set', match: /Invalid pk "50"/ }],
  ['label_set not of the document\'s category', { labelSetId: 40, labelSet: otherCategory }, { kind: 'refuse', field: 'label_set', match: /not a label set of the document's category/ }],
  ['a document without category takes any label set of its project', { document: { ...doc, categoryId: null }, labelSetId: 40, labelSet: otherCategory },
    { kind: 'create', labelSetId: 40, rule: 'single: first set created for label_set' }],
  // missing annotations
  ['missing: repeating with one set uses it', { purpose: 'missing', labelSetId: 20, labelSet: repeating, existingSets: [setOf(1, repeating)] },
    { kind: 'reuse', annotationSetId: 1, rule: 'missing: only set of a repeating label set' }],
  ['missing: repeating without a set creates the first', { purpose: 'missing', labelSetId: 20, labelSet: repeating, existingSets: [] },
    { kind: 'create', labelSetId: 20, rule: 'missing: first set of a repeating label set' }],
  ['missing: repeating with several sets needs annotation_set', { purpose: 'missing', labelSetId: 20, labelSet: repeating, existingSets: [setOf(1, repeating), setOf(5, repeating)] },
    { kind: 'refuse', field: 'annotation_set', match: /2 annotation sets.*1, 5/ }],
  ['missing: single re-uses its set', { purpose: 'missing', labelSetId: 30, labelSet: single, existingSets: [setOf(2, single)] },
    { kind: 'reuse', annotationSetId: 2, rule: 'single: existing set re-used for label_set' }],
];

describe('decideAnnotationSet', () => {
  it.each(rows)('%s', (_name, partial, expected) => {
    const req: SetRequest = { purpose: 'annotation', document: doc, labelId: 1, labelName: 'Date', existingSets: [], ...partial };
    const d = decideAnnotationSet(req);
    if ('match' in expected) {
      expect(d.kind).toBe('refuse');
      if (d.kind !== 'refuse') return;
      expect(d.field).toBe(expected.field);
      expect(d.message).toMatch(expected.match);
    } else {
      expect(d).toEqual(expected);
    }
  });
});

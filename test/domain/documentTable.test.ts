// The per-document table (domain/documentTable.ts) on its own: which annotations give values, how
// headers stay unique, labels the taxonomy no longer lists, and the two layouts.
import { describe, expect, it } from 'vitest';
import { buildDocumentTable, csvRows, xlsxSheets, type TableAnnotation, type TableDocument } from '../../main/domain/documentTable.ts';

const doc = (id: number): TableDocument => ({
  id, data_file_name: `${id}.pdf`, category: 'C', status: 'Done', dataset_status: 'None', assignee: null, created_at: 't', updated_at: 't', link: `L${id}`,
});
const ann = (over: Partial<TableAnnotation>): TableAnnotation => ({
  documentId: 1, annotationSetId: 10, labelSetId: 1, labelSetName: 'Head', labelId: 1, labelName: 'Total', dataType: 'Number', state: 'Accepted', normalized: 5, ...over,
});

describe('per-document table', () => {
  const sets = [
    { id: 1, name: 'Head', repeating: false, labels: [{ id: 1, name: 'Total' }, { id: 2, name: 'link' }] },
    { id: 2, name: 'Items', repeating: true, labels: [{ id: 1, name: 'Total' }] },
    { id: 3, name: 'Items', repeating: false, labels: [{ id: 1, name: 'Total' }] },
  ];

  it('names a column by its label, or by label set and label when the name repeats, numbered when even that repeats', () => {
    const t = buildDocumentTable([doc(1)], sets, []);
    expect(t.columns.map((c) => c.header)).toEqual(['Head / Total', 'Head / link', 'Items / Total', 'Items / Total (2)']);
  });

  it('leaves out declined annotations and counts the rest; several values are one per line and text', () => {
    const t = buildDocumentTable([doc(1), doc(2)], sets.slice(0, 1), [
      ann({ normalized: 5, state: 'Declined' }),
      ann({ normalized: 7, state: 'Feedback required' }),
      ann({ documentId: 2, normalized: 1.5 }),
      ann({ documentId: 2, normalized: null, state: 'Created by human' }),
      ann({ documentId: 3, normalized: 99 }), // not an exported document
    ]);
    expect(t.rows.map((r) => r.values.get('1:1'))).toEqual([{ text: '7.0', number: 7 }, { text: '1.5\nNone', number: null }]);
    expect(xlsxSheets(t)[0].rows.slice(1).map((r) => r[9])).toEqual([7, '1.5\nNone']);
    expect(csvRows(t).slice(1).map((r) => r[12])).toEqual(['7.0', '1.5\nNone']);
  });

  it('keeps values of a label taken out of its label set, in a column after the set\'s own', () => {
    const t = buildDocumentTable([doc(1)], sets.slice(0, 1), [ann({ labelId: 9, labelName: 'Old', dataType: 'Text', normalized: 'x' })]);
    expect(t.columns.map((c) => c.header)).toEqual(['Total', 'Head / link', 'Old']);
    expect(csvRows(t)[1].slice(-1)).toEqual(['x']);
  });

  it('numbers the annotation sets of a repeating label set per document in creation order', () => {
    const t = buildDocumentTable([doc(1)], sets.slice(0, 2), [
      ann({ labelSetId: 2, annotationSetId: 31, normalized: 2 }),
      ann({ labelSetId: 2, annotationSetId: 30, normalized: 1 }),
      ann({ labelSetId: 2, annotationSetId: 32, normalized: 3, state: 'Declined' }), // nothing left: no row
    ]);
    expect(t.rows[0].sets.map((s) => [s.index, s.annotationSetId, s.values.get('2:1')?.number])).toEqual([[1, 30, 1], [2, 31, 2]]);
    const [documents, repeating] = xlsxSheets(t);
    expect(documents.rows).toHaveLength(2);
    expect(repeating.rows.slice(1).map((r) => r.slice(9))).toEqual([['Items', 1, 30, 1], ['Items', 2, 31, 2]]);
  });
});

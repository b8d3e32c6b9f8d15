// The per-document table (domain/documentTable.ts) on its own: which annotations give values (all but
// declined ones, or only checked ones), the review columns, text as the app shows it, how headers stay
// unique, labels the taxonomy no longer lists, and the two layouts.
import { describe, expect, it } from 'vitest';
import { buildDocumentTable, csvRows, xlsxSheets, type TableAnnotation, type TableDocument } from '../../main/domain/documentTable.ts';

const doc = (id: number): TableDocument => ({
  id, data_file_name: `${id}.pdf`, category: 'C', status: 'Done', dataset_status: 'None', assignee: null, created_at: 't', updated_at: 't', link: `L${id}`, is_reviewed: id === 2,
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
    expect(t.rows.map((r) => r.values.get('1:1'))).toEqual([
      { text: '7.0', number: 7, review: 'Feedback required' },
      { text: '1.5\nNone', number: null, review: 'Accepted\nCreated by human' },
    ]);
    expect(xlsxSheets(t)[0].rows.slice(1).map((r) => r[9])).toEqual([7, '1.5\nNone']);
    expect(csvRows(t).slice(1).map((r) => r[12])).toEqual(['7.0', '1.5\nNone']);
  });

  it('ends each layout with is_reviewed and a review column per label column, the label columns staying where they were', () => {
    const t = buildDocumentTable([doc(1), doc(2)], sets.slice(0, 2), [
      ann({ normalized: 7, state: 'Feedback required' }),
      ann({ documentId: 2, normalized: 5, state: 'Declined' }),
      ann({ documentId: 2, labelSetId: 2, annotationSetId: 40, normalized: 3, state: 'Created by human' }),
    ]);
    const [header, first, second, set] = csvRows(t);
    expect(header.slice(12)).toEqual(['Head / Total', 'Head / link', 'Items / Total', 'is_reviewed', 'Head / Total (review)', 'Head / link (review)', 'Items / Total (review)']);
    expect(first.slice(12)).toEqual(['7.0', null, null, 'False', 'Feedback required', null, null]);
    // A declined value alone: no value, its state says why the cell is empty.
    expect(second.slice(12)).toEqual([null, null, null, 'True', 'Declined', null, null]);
    expect(set.slice(9)).toEqual(['Items', 1, 40, null, null, '3.0', 'True', null, null, 'Created by human']);
    const [documents, repeating] = xlsxSheets(t);
    expect(documents.rows[0].slice(9)).toEqual(['Head / Total', 'Head / link', 'is_reviewed', 'Head / Total (review)', 'Head / link (review)']);
    expect(documents.rows[1].slice(9)).toEqual([7, null, 'False', 'Feedback required', null]);
    expect(repeating.rows.map((r) => r.slice(12))).toEqual([['Items / Total', 'is_reviewed', 'Items / Total (review)'], [3, 'True', 'Created by human']]);
  });

  it('of reviewed values only, leaves out what awaits feedback and says so when nothing is left', () => {
    const t = buildDocumentTable([doc(1)], sets.slice(0, 2), [
      ann({ normalized: 7, state: 'Feedback required' }),
      ann({ normalized: 8, state: 'Accepted' }),
      ann({ labelId: 2, labelName: 'link', normalized: 9, state: 'Feedback required' }),
      ann({ labelId: 2, labelName: 'link', normalized: 10, state: 'Declined' }),
      ann({ labelSetId: 2, annotationSetId: 41, normalized: 1, state: 'Feedback required' }), // nothing checked: no row
    ], { reviewedOnly: true });
    expect([t.rows[0].values.get('1:1'), t.rows[0].values.get('1:2')]).toEqual([
      { text: '8.0', number: 8, review: 'Accepted' },
      { text: '', number: null, review: 'Feedback required' },
    ]);
    expect(t.rows[0].sets).toEqual([]);
  });

  it('writes text values with runs of white space as one space, as the review screen shows them', () => {
    const t = buildDocumentTable([doc(1)], sets.slice(0, 1), [
      ann({ dataType: 'Text', normalized: '  UNIHAKKA     INTERNATIONAL\n SDN BHD ' }),
      ann({ labelId: 2, labelName: 'link', dataType: 'Text', normalized: 'a\tb' }),
    ]);
    expect(csvRows(t)[1].slice(12, 14)).toEqual(['UNIHAKKA INTERNATIONAL SDN BHD', 'a b']);
  });

  it('keeps values of a label taken out of its label set, in a column after the set\'s own', () => {
    const t = buildDocumentTable([doc(1)], sets.slice(0, 1), [ann({ labelId: 9, labelName: 'Old', dataType: 'Text', normalized: 'x' })]);
    expect(t.columns.map((c) => c.header)).toEqual(['Total', 'Head / link', 'Old']);
    expect(csvRows(t)[1].slice(12, 15)).toEqual([null, null, 'x']);
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
    expect(repeating.rows.slice(1).map((r) => r.slice(9, 13))).toEqual([['Items', 1, 30, 1], ['Items', 2, 31, 2]]);
  });
});

// Spec 3.1 and 3.2 as tables: review state of an annotation, label status, and the review gate.
import { describe, expect, it } from 'vitest';
import { labelStatus, reviewBlockers, reviewState, type LabelStatus, type ReviewSet, type ReviewState } from '../../main/domain/reviewRules.ts';

describe('reviewState (spec 3.2)', () => {
  const rows: [string, 'human' | 'machine', boolean, boolean, ReviewState][] = [
    // transition,                                   origin,   revised, is_correct, state
    ['extraction on upload -> Feedback required', 'machine', false, false, 'Feedback required'],
    ['Feedback required + revised, correct -> Accepted', 'machine', true, true, 'Accepted'],
    ['Feedback required + revised, incorrect -> Declined', 'machine', true, false, 'Declined'],
    ['machine-made already marked correct -> Accepted', 'machine', false, true, 'Accepted'],
    ['Unfilled + annotation created by a person -> Created by human', 'human', false, true, 'Created by human'],
    ['human-made, accepted by a reviewer -> Accepted', 'human', true, true, 'Accepted'],
    ['human-made, declined -> Declined', 'human', true, false, 'Declined'],
    ['human-made sent as awaiting review -> Feedback required', 'human', false, false, 'Feedback required'],
  ];
  it.each(rows)('%s', (_name, origin, revised, isCorrect, expected) => {
    expect(reviewState({ origin, revised, isCorrect })).toBe(expected);
  });
});

describe('labelStatus (spec 3.2, per label and annotation set)', () => {
  const rows: [string, ReviewState[], boolean, LabelStatus][] = [
    ['extraction found nothing -> Unfilled', [], false, 'Unfilled'],
    ['Declined and no accepted annotation -> Unfilled', ['Declined'], false, 'Unfilled'],
    ['Unfilled + missing annotation -> Not found', [], true, 'Not found'],
    ['declined annotation + missing annotation -> Not found', ['Declined'], true, 'Not found'],
    ['Unfilled + annotation by a person -> Created by human', ['Created by human'], false, 'Created by human'],
    ['accepted -> Accepted', ['Accepted', 'Declined'], false, 'Accepted'],
    ['accepted wins over human-made', ['Created by human', 'Accepted'], false, 'Accepted'],
    ['pending feedback is what needs action', ['Accepted', 'Feedback required'], false, 'Feedback required'],
    ['pending feedback even when marked missing', ['Feedback required'], true, 'Feedback required'],
  ];
  it.each(rows)('%s', (_name, states, missing, expected) => {
    expect(labelStatus(states, missing)).toBe(expected);
  });
});

describe('reviewBlockers (spec 3.1: PATCH is_reviewed true)', () => {
  const set = (id: number | null, multiple: boolean, labels: ReviewSet['labels']): ReviewSet => ({
    annotationSetId: id,
    labelSetName: 'Invoice',
    hasMultipleSections: multiple,
    labels,
  });
  const label = (name: string, status: LabelStatus, annotations: { id: number; state: ReviewState }[] = []) => ({ name, status, annotations });

  const rows: [string, ReviewSet[], RegExp[]][] = [
    ['no annotation sets at all: may be reviewed', [], []],
    ['every label accepted or not found: may be reviewed', [set(1, false, [label('Date', 'Accepted', [{ id: 5, state: 'Accepted' }]), label('Total', 'Not found')])], []],
    ['human-made annotations fill labels', [set(1, false, [label('Date', 'Created by human', [{ id: 5, state: 'Created by human' }])])], []],
    ['an annotation awaiting feedback blocks', [set(1, false, [label('Date', 'Feedback required', [{ id: 7, state: 'Feedback required' }])])], [/1 annotation awaits feedback.*7/]],
    ['an unfilled label blocks, named with its set', [set(1, false, [label('Total', 'Unfilled')])], [/1 label is unfilled.*Invoice > Total \(annotation set 1\)/]],
    ['a declined annotation leaves its label unfilled', [set(1, false, [label('Total', 'Unfilled', [{ id: 9, state: 'Declined' }])])], [/Total/]],
    ['a potential non-repeating set blocks', [set(null, false, [label('Total', 'Unfilled')])], [/no annotation set yet/]],
    ['a potential repeating set does not block (a section may occur zero times)', [set(null, true, [label('Item', 'Unfilled')])], []],
    ['an existing repeating set must be complete', [set(3, true, [label('Item', 'Unfilled')])], [/annotation set 3/]],
    [
      'both reasons together',
      [set(1, false, [label('Date', 'Feedback required', [{ id: 2, state: 'Feedback required' }, { id: 1, state: 'Feedback required' }]), label('Total', 'Unfilled')])],
      [/2 annotations await feedback.*1, 2/, /Total/],
    ],
  ];
  it.each(rows)('%s', (_name, sets, expected) => {
    const reasons = reviewBlockers(sets);
    expect(reasons).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(reasons[i]).toMatch(re));
  });

  it('lists at most 20 items and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => label(`L${i}`, 'Unfilled'));
    const [reason] = reviewBlockers([set(1, false, many)]);
    expect(reason).toMatch(/25 labels are unfilled/);
    expect(reason).toMatch(/and 5 more/);
  });
});

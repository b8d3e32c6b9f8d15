// The splitting AI's library without a database, on the payslip dataset: trained on dataset_status 2, it
// splits streams of the held-out documents at their first pages and keeps 2-page documents whole; the
// model file round-trips and foreign or damaged files are refused; too little to learn from is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { profilePage } from '../../main/ai/splitting/features.ts';
import {
  evaluateSplitter,
  InvalidModelFile,
  NothingToSplit,
  parseSplitter,
  proposeSplit,
  serializeSplitter,
  SPLITTER_FORMAT,
  trainSplitter,
  type SplitPage,
  type SplittingModel,
} from '../../main/ai/splitting/index.ts';
import { loadSplittingDataset, makeStreams, streamOf, type DatasetSplitDocument } from '../fixtures/payslipStreams.ts';

let all: DatasetSplitDocument[];
let model: SplittingModel;
const byId = (...ids: number[]) => ids.map((id) => all.find((d) => d.id === id)!);

beforeAll(() => {
  all = loadSplittingDataset();
  model = trainSplitter(all.filter((d) => d.datasetStatus === 2));
});

/** A page of text lines 14 pt apart from the top, each character 6 pt wide and 10 pt high. */
function textPage(lines: string[]): SplitPage {
  const chars: SplitPage['chars'] = [];
  let offset = 0;
  lines.forEach((line, l) => {
    Array.from(line).forEach((ch, i) => {
      const top = 40 + 14 * l;
      if (ch.trim()) chars.push({ offset: offset + i, text: ch, x0: 50 + 6 * i, x1: 56 + 6 * i, y0: 842 - top - 10, y1: 842 - top, top, bottom: top + 10, page_index: 0, line_index: l + 1 });
    });
    offset += Array.from(line).length + 1;
  });
  return { text: lines.join('\n'), chars, width: 595, height: 842 };
}

describe('splitting the payslip dataset', () => {
  it('learns from the training documents and their synthetic streams', () => {
    const training = all.filter((d) => d.datasetStatus === 2);
    expect(model.training).toMatchObject({ documents: training.length, pages: training.reduce((n, d) => n + d.pages.length, 0) });
    expect(model.forest.classes).toBe(2);
  });

  it('splits a stream of held-out payslips and receipts at the first page of each', () => {
    // 89928 is a 2-page receipt (its back side is legal small print); the others are one page each.
    const stream = streamOf(byId(44865, 89928, 141437, 44866, 141441, 44867));
    expect(stream.starts).toEqual([0, 1, 3, 4, 5, 6]);
    const proposal = proposeSplit(model, stream.pages);
    expect(proposal.starts).toEqual(stream.starts);
    expect(proposal.confidence).toHaveLength(proposal.starts.length);
    expect(proposal.confidence[0]).toBe(1);
    for (const c of proposal.confidence) expect(c).toBeGreaterThanOrEqual(model.threshold);
  });

  it('keeps a 2-page document whole, also next to another one from the same shop', () => {
    expect(proposeSplit(model, byId(89928)[0].pages).starts).toEqual([0]);
    // Trained without the two HIT receipts: the second one's first page follows the first one's back side.
    const without = trainSplitter(all.filter((d) => d.id !== 89927 && d.id !== 89931));
    expect(proposeSplit(without, streamOf(byId(89927, 89931)).pages).starts).toEqual([0, 2]);
  });

  it('scores many held-out streams: split points found exactly', () => {
    const streams = makeStreams(all.filter((d) => d.datasetStatus === 3), 40, 7);
    const result = evaluateSplitter(model, streams);
    expect(result.streams).toBe(40);
    expect(result.truePositives + result.falseNegatives).toBe(streams.reduce((n, s) => n + s.starts.length - 1, 0));
    expect(result.f1).toBeGreaterThanOrEqual(0.95);
  });

  it('proposes nothing for no pages, and a start for a single page', () => {
    expect(proposeSplit(model, [])).toEqual({ starts: [], confidence: [] });
    expect(proposeSplit(model, [textPage(['Rechnung 2020-17', 'Summe 12,50'])])).toEqual({ starts: [0], confidence: [1] });
  });

  it('is reproducible for a seed', () => {
    const training = all.filter((d) => d.datasetStatus === 2);
    const again = trainSplitter(training, { seed: 1 });
    expect(again.forest).toEqual(model.forest);
    expect(trainSplitter(training, { seed: 2 }).forest).not.toEqual(model.forest);
  });
});

describe('page features', () => {
  it('read page numbers in German and English, not dates', () => {
    const numberOf = (line: string) => profilePage(textPage(['Kopfzeile', line])).pageNumber;
    expect(numberOf('Seite 2 von 3')).toEqual({ n: 2, of: 3 });
    expect(numberOf('Page 1 of 4')).toEqual({ n: 1, of: 4 });
    expect(numberOf('Abrechnung Dezember 2018    22.05.2018 Blatt:  1')).toEqual({ n: 1, of: null });
    expect(numberOf('- 3 -')).toEqual({ n: 3, of: null });
    expect(numberOf('Datum 10/02/2020')).toBeNull();
    expect(numberOf('3 von 2')).toBeNull();
  });
});

describe('model files', () => {
  it('round-trip: the parsed model proposes the same splits', () => {
    const file = serializeSplitter(model);
    expect(JSON.parse(file)).toMatchObject({ format: SPLITTER_FORMAT, version: model.version });
    const parsed = parseSplitter(file);
    expect(parsed).toEqual(model);
    const stream = streamOf(byId(44866, 89928, 141441));
    expect(proposeSplit(parsed, stream.pages)).toEqual(proposeSplit(model, stream.pages));
  });

  it('refuse foreign, other-version and damaged files', () => {
    const file = JSON.parse(serializeSplitter(model)) as Record<string, any>;
    const refused = (content: string, message: RegExp) => {
      expect(() => parseSplitter(content)).toThrow(InvalidModelFile);
      expect(() => parseSplitter(content)).toThrow(message);
    };
    const edited = (edit: (f: Record<string, any>) => void) => {
      const copy = structuredClone(file);
      edit(copy);
      return JSON.stringify(copy);
    };
    refused('not json {', /not JSON/);
    refused(JSON.stringify({ format: 'folio-extraction-model', version: 1 }), /not a splitting model/);
    refused(edited((f) => (f.version = 99)), /version 99 is not supported/);
    refused(edited((f) => delete f.forest), /not a splitting model/);
    refused(edited((f) => f.features.pop()), /other page features/);
    refused(edited((f) => (f.forest.trees[0].left[0] = 0)), /points outside/);
    refused(edited((f) => (f.forest.trees[0].threshold = [])), /different lengths/);
    refused(edited((f) => (f.forest.trees = [])), /no trees/);
  });
});

describe('too little to learn from', () => {
  it('refuses no documents, one document, and documents without a second page', () => {
    const twoPages = byId(89928)[0];
    const onePage = all.filter((d) => d.pages.length === 1).slice(0, 5);
    expect(() => trainSplitter([])).toThrow(NothingToSplit);
    expect(() => trainSplitter([twoPages])).toThrow(/at least two training documents/);
    expect(() => trainSplitter([{ id: 'empty', pages: [] }, twoPages])).toThrow(NothingToSplit);
    expect(() => trainSplitter(onePage)).toThrow(/more than one page/);
    expect(trainSplitter([...onePage, twoPages]).forest.classes).toBe(2);
  });
});

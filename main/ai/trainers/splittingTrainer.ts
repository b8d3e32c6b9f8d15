// The splitting AI of a project: learns where documents start from the project's training documents
// (dataset_status 2: each is one document, its first page a start), evaluated on streams made of its test
// documents (dataset_status 3) laid end to end, three at a time: are the real starts found, and no others?
import { DatasetStatus } from '../../domain/documentStatus.ts';
import type { Repos } from '../../store/repositories/index.ts';
import type { AiModelRow } from '../../store/schema.ts';
import { datasetDocuments, extractionDocument } from '../aiData.ts';
import { documentPages, evaluateSplitter, NothingToSplit, parseSplitter, serializeSplitter, trainSplitter, type SplitPage, type SplitStream } from '../splitting/index.ts';
import { NothingToTrain, scoreEach, snakeScore, type AiEvaluation, type Trainer } from './types.ts';

const DOCUMENTS_PER_STREAM = 3;

async function pagesOf(repos: Repos, projectId: number, datasetStatus: number): Promise<SplitPage[][]> {
  const out: SplitPage[][] = [];
  for (const row of await datasetDocuments(repos, projectId, datasetStatus)) {
    const pages = documentPages(await extractionDocument(repos, row));
    if (pages.length) out.push(pages);
  }
  return out;
}

export const splittingTrainer: Trainer = {
  kind: 'splitting',

  async train({ repos, model, onProgress }) {
    onProgress(1, 'loading documents');
    const docs = (await pagesOf(repos, model.project_id, DatasetStatus.TRAINING)).map((pages, i) => ({ id: i, pages }));
    onProgress(40, 'learning');
    try {
      const trained = trainSplitter(docs);
      return { file: serializeSplitter(trained), training: { documents: trained.training.documents, pages: trained.training.pages, seconds: trained.training.seconds } };
    } catch (err) {
      if (err instanceof NothingToSplit) throw new NothingToTrain(`Nothing to learn: ${err.message}`);
      throw err;
    }
  },

  async evaluate(repos: Repos, model: AiModelRow, files: string[]): Promise<(AiEvaluation | null)[]> {
    const docs = await pagesOf(repos, model.project_id, DatasetStatus.TEST);
    if (!docs.length) return files.map(() => null);
    const streams: SplitStream[] = [];
    for (let i = 0; i < docs.length; i += DOCUMENTS_PER_STREAM) {
      const stream: SplitStream = { pages: [], starts: [] };
      for (const pages of docs.slice(i, i + DOCUMENTS_PER_STREAM)) {
        stream.starts.push(stream.pages.length);
        stream.pages.push(...pages);
      }
      streams.push(stream);
    }
    return scoreEach(files, (file) => {
      const result = evaluateSplitter(parseSplitter(file), streams);
      return { score: result.f1, metric: 'f1', documents: docs.length, streams: result.streams, overall: snakeScore(result) };
    });
  },

  check(file: string) {
    parseSplitter(file);
  },
};

// A training that is still running: queued, or training with its progress and stage as the API reports them.
import type { AiOut } from '../../api/client.ts';

const STAGES: Record<string, string> = {
  evaluating: 'comparing with the active AI on the test documents',
};

export function TrainingProgress({ model }: { model: AiOut }) {
  const stage = model.status === 'queued' ? 'waiting to start' : (STAGES[model.stage ?? ''] ?? model.stage ?? 'training');
  const id = `ai-progress-${model.id}`;
  return (
    <div className="training-progress">
      <label htmlFor={id}>
        Training AI #{model.id}: {stage}
      </label>
      <progress id={id} max={100} value={model.status === 'queued' ? 0 : model.progress} aria-valuetext={`${model.progress} %, ${stage}`} />
      <span className="progress-figure" aria-hidden="true">
        {model.progress} %
      </span>
    </div>
  );
}

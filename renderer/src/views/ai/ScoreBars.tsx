// A horizontal bar chart of scores from 0 to 1 (per-label F1, per-category accuracy), each row with a
// second, paler bar for the model it is compared with. Plain SVG: the figures also appear in a table
// next to it, so the chart is one image with a summary for screen readers.
import { useId } from 'react';

export interface BarRow {
  key: string | number;
  name: string;
  value: number;
  /** The compared model's figure; null when it has none for this row. */
  reference?: number | null;
}

interface ScoreBarsProps {
  rows: BarRow[];
  /** What the bars measure, e.g. "F1 per label". */
  title: string;
  valueTitle: string;
  referenceTitle?: string | null;
}

const WIDTH = 640;
const LABEL_W = 170;
const BAR_X = LABEL_W + 10;
const BAR_W = 390;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

const shortName = (name: string) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);
const pct = (v: number) => `${Math.round(v * 100)}%`;

export function ScoreBars({ rows, title, valueTitle, referenceTitle }: ScoreBarsProps) {
  const titleId = useId();
  const compare = !!referenceTitle;
  const rowH = compare ? 30 : 20;
  const top = 6;
  const height = top + rows.length * rowH + 24;
  const summary = rows.map((r) => `${r.name} ${pct(r.value)}${compare && r.reference != null ? ` (${pct(r.reference)})` : ''}`).join(', ');

  return (
    <figure className="score-bars">
      <figcaption>
        <span>{title}</span>
        <span className="legend">
          <span className="swatch swatch-value" aria-hidden="true" /> {valueTitle}
          {compare && (
            <>
              <span className="swatch swatch-reference" aria-hidden="true" /> {referenceTitle}
            </>
          )}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-labelledby={titleId} className="chart">
        <title id={titleId}>{`${title}: ${summary}`}</title>
        {TICKS.map((t) => (
          <g key={t}>
            <line className="grid" x1={BAR_X + t * BAR_W} x2={BAR_X + t * BAR_W} y1={top - 4} y2={height - 20} />
            <text className="tick" x={BAR_X + t * BAR_W} y={height - 6} textAnchor="middle">
              {pct(t)}
            </text>
          </g>
        ))}
        {rows.map((r, i) => {
          const y = top + i * rowH;
          const barH = compare ? 11 : 13;
          return (
            <g key={r.key}>
              <text className="row-label" x={LABEL_W} y={y + (compare ? 16 : 11)} textAnchor="end">
                <title>{r.name}</title>
                {shortName(r.name)}
              </text>
              <rect className="bar-value" x={BAR_X} y={y + 2} width={Math.max(0, r.value) * BAR_W} height={barH} rx={2} />
              <text className="bar-figure" x={BAR_X + Math.max(0, r.value) * BAR_W + 4} y={y + 2 + barH - 2}>
                {pct(r.value)}
              </text>
              {compare && r.reference != null && (
                <>
                  <rect className="bar-reference" x={BAR_X} y={y + 3 + barH} width={Math.max(0, r.reference) * BAR_W} height={barH} rx={2} />
                  <text className="bar-figure muted-figure" x={BAR_X + Math.max(0, r.reference) * BAR_W + 4} y={y + 3 + 2 * barH - 2}>
                    {pct(r.reference)}
                  </text>
                </>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

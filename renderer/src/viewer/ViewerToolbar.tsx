// The viewer's toolbar: page navigation (previous, the page number, next) and zoom (out, the zoom menu,
// in, fit width, fit page), plus the legend of box colours.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { MAX_PERCENT, MIN_PERCENT, ZOOM_STEPS, stepZoom } from './layout.ts';
import { STATE_CLASS } from './BoxLayer.tsx';
import type { ReviewStateName, ZoomMode } from './types.ts';

interface Props {
  pageCount: number;
  /** 0-based index of the page in view. */
  current: number;
  onGo(index: number): void;
  zoom: ZoomMode;
  /** The zoom in effect, in percent (fitted zooms included). */
  percent: number;
  onZoom(zoom: ZoomMode): void;
}

export function ViewerToolbar({ pageCount, current, onGo, zoom, percent, onZoom }: Props) {
  const zoomId = useId();
  return (
    <div className="viewer-toolbar" role="toolbar" aria-label="Pages and zoom">
      <PageNavigation pageCount={pageCount} current={current} onGo={onGo} />
      <span className="viewer-sep" aria-hidden="true" />
      <button type="button" onClick={() => onZoom(stepZoom(percent, -1))} disabled={percent <= MIN_PERCENT} aria-label="Zoom out" title="Zoom out (Ctrl -)">
        −
      </button>
      <label className="viewer-visually-hidden" htmlFor={zoomId}>
        Zoom
      </label>
      <select id={zoomId} value={zoom.kind === 'percent' ? String(zoom.value) : zoom.kind} onChange={(e) => onZoom(parseZoom(e.target.value))}>
        <option value="fit-width">Fit width ({percent}%)</option>
        <option value="fit-page">Fit page ({percent}%)</option>
        {zoom.kind === 'percent' && !ZOOM_STEPS.includes(zoom.value) && <option value={String(zoom.value)}>{zoom.value}%</option>}
        {ZOOM_STEPS.map((s) => (
          <option key={s} value={String(s)}>
            {s}%
          </option>
        ))}
      </select>
      <button type="button" onClick={() => onZoom(stepZoom(percent, 1))} disabled={percent >= MAX_PERCENT} aria-label="Zoom in" title="Zoom in (Ctrl +)">
        +
      </button>
      <button type="button" aria-pressed={zoom.kind === 'fit-width'} onClick={() => onZoom({ kind: 'fit-width' })} title="Fit width (Ctrl 0)">
        Fit width
      </button>
      <button type="button" aria-pressed={zoom.kind === 'fit-page'} onClick={() => onZoom({ kind: 'fit-page' })}>
        Fit page
      </button>
      <span className="spacer" />
      <Legend />
    </div>
  );
}

const parseZoom = (v: string): ZoomMode => (v === 'fit-width' || v === 'fit-page' ? { kind: v } : { kind: 'percent', value: Number(v) });

/** Previous / page number / next. The field shows the page in view until the reader types in it. */
function PageNavigation({ pageCount, current, onGo }: { pageCount: number; current: number; onGo(index: number): void }) {
  const [typed, setTyped] = useState<string | null>(null);
  const inputId = useId();
  useEffect(() => setTyped(null), [current]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(typed);
    if (Number.isInteger(n) && n >= 1 && n <= pageCount) onGo(n - 1);
    setTyped(null);
  };
  return (
    <form className="viewer-pagenav" onSubmit={submit}>
      <button type="button" onClick={() => onGo(current - 1)} disabled={current <= 0} aria-label="Previous page" title="Previous page">
        ‹
      </button>
      <label htmlFor={inputId}>Page</label>
      <input
        id={inputId}
        inputMode="numeric"
        autoComplete="off"
        size={4}
        value={typed ?? String(current + 1)}
        onChange={(e) => setTyped(e.target.value)}
        onBlur={() => setTyped(null)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setTyped(null);
        }}
      />
      <span className="muted">of {pageCount}</span>
      <button type="button" onClick={() => onGo(current + 1)} disabled={current >= pageCount - 1} aria-label="Next page" title="Next page">
        ›
      </button>
    </form>
  );
}

const LEGEND: ReviewStateName[] = ['Feedback required', 'Accepted', 'Declined', 'Created by human'];

/** What the box colours mean; each state also has its own border style, for readers who cannot tell the colours apart. */
export function Legend() {
  return (
    <ul className="viewer-legend" aria-label="Box colours">
      {LEGEND.map((state) => (
        <li key={state}>
          <span className={`viewer-swatch ${STATE_CLASS[state]}`} aria-hidden="true" />
          {state}
        </li>
      ))}
    </ul>
  );
}

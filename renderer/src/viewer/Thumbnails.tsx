// The strip of page thumbnails beside the pages: the current page marked, a click (or Enter) goes to a
// page. One Tab stop for the whole strip (the current page); arrow keys move through it. Every page has
// its button (sized from the page, so the strip never reflows), but only those near the strip's view
// carry an image: 300 lazy images would be checked against the viewport on every scrolled frame.
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { PageSummary } from '../api/client.ts';

/** Thumbnail width in CSS pixels; heights follow each page's proportions, so the strip never reflows. */
const THUMB_WIDTH = 84;
/** Thumbnails above and below the strip's view that load their image too. */
const IMAGE_OVERSCAN = 6;

interface Props {
  pages: readonly PageSummary[];
  current: number;
  thumbnailUrl(page: PageSummary): string | null;
  onGo(index: number): void;
}

export const Thumbnails = memo(function Thumbnails({ pages, current, thumbnailUrl, onGo }: Props) {
  const strip = useRef<HTMLElement>(null);
  const [withImages, setWithImages] = useState<[number, number]>([0, -1]);

  // Which thumbnails are in the strip's view: a binary search over the buttons' offsets, per frame at most.
  const measure = useCallback(() => {
    const box = strip.current;
    if (!box) return;
    const thumbs = box.children as HTMLCollectionOf<HTMLElement>;
    const firstBelow = (y: number) => {
      let lo = 0;
      let hi = thumbs.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (thumbs[mid].offsetTop + thumbs[mid].offsetHeight < y) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const first = Math.max(0, firstBelow(box.scrollTop) - IMAGE_OVERSCAN);
    const last = Math.min(thumbs.length - 1, firstBelow(box.scrollTop + box.clientHeight) + IMAGE_OVERSCAN);
    setWithImages((r) => (r[0] === first && r[1] === last ? r : [first, last]));
  }, []);
  useLayoutEffect(() => {
    const box = strip.current;
    if (!box) return;
    let frame = 0;
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(() => {
        frame = 0;
        measure();
      });
    };
    measure();
    box.addEventListener('scroll', onScroll, { passive: true });
    const ro = new ResizeObserver(onScroll);
    ro.observe(box);
    return () => {
      box.removeEventListener('scroll', onScroll);
      ro.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [measure, pages]);

  // Keep the current page's thumbnail in view as the reader scrolls the pages.
  useEffect(() => {
    const el = strip.current?.querySelector<HTMLElement>(`[data-thumb="${current}"]`);
    const box = strip.current;
    if (!el || !box) return;
    const top = el.offsetTop; // the strip is the offset parent (position: relative)
    if (top < box.scrollTop) box.scrollTop = top - 8;
    else if (top + el.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + el.offsetHeight - box.clientHeight + 8;
  }, [current]);

  const onKeyDown = (e: KeyboardEvent) => {
    const to = e.key === 'ArrowDown' ? current + 1 : e.key === 'ArrowUp' ? current - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? pages.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const target = Math.min(pages.length - 1, Math.max(0, to));
    onGo(target);
    strip.current?.querySelector<HTMLElement>(`[data-thumb="${target}"]`)?.focus();
  };

  return (
    <nav ref={strip} className="viewer-thumbs" aria-label="Pages" onKeyDown={onKeyDown}>
      {pages.map((page, i) => (
        <Thumb key={page.id} page={page} index={i} isCurrent={i === current} url={i >= withImages[0] && i <= withImages[1] ? thumbnailUrl(page) : null} onGo={onGo} />
      ))}
    </nav>
  );
});

/** One thumbnail; memoised so that moving to the next page re-renders two of 300. */
const Thumb = memo(function Thumb({ page, index, isCurrent, url, onGo }: { page: PageSummary; index: number; isCurrent: boolean; url: string | null; onGo(index: number): void }) {
  return (
    <button
      type="button"
      className="viewer-thumb"
      data-thumb={index}
      tabIndex={isCurrent ? 0 : -1}
      aria-current={isCurrent ? 'page' : undefined}
      aria-label={`Page ${page.number}`}
      onClick={() => onGo(index)}
    >
      <span className="viewer-thumb-frame" style={{ width: THUMB_WIDTH, height: Math.round((THUMB_WIDTH * page.original_size[1]) / page.original_size[0]) }}>
        {url && <img src={url} alt="" decoding="async" fetchPriority="low" draggable={false} />}
      </span>
      <span className="viewer-thumb-number" aria-hidden="true">
        {page.number}
      </span>
    </button>
  );
});

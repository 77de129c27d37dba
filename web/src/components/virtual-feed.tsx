import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * A windowed `role="feed"` list for long, variable-height item lists inside a scroll container.
 *
 * Only the items in (and `overscan` around) the visible part of the container are rendered;
 * padding above and below stands in for the rest. Heights start as an estimate and are
 * measured with a ResizeObserver once rendered, so cards may grow (inline edit) freely. The
 * browser's scroll anchoring keeps the view steady when a measurement above the view differs
 * from the estimate. Short lists (up to `threshold` items) are rendered whole.
 * @see https://www.w3.org/WAI/ARIA/apg/patterns/feed/
 */
export interface VirtualFeedProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /** Render one item; spread `itemProps` on its `article` (position in set). */
  renderItem: (item: T, itemProps: { 'aria-posinset': number; 'aria-setsize': number }) => ReactNode;
  scrollRef: RefObject<HTMLElement | null>;
  estimateSize: number;
  gap: number;
  /** Total number of items, including those not loaded yet (-1 when unknown). */
  setSize: number;
  busy?: boolean;
  labelledBy: string;
  overscan?: number;
  threshold?: number;
  className?: string;
}

/** Measured item heights by key. A plain object with methods, so renders can read it. */
class SizeCache {
  private readonly heights = new Map<string, number>();

  get(key: string): number | undefined {
    return this.heights.get(key);
  }

  /** Returns whether the stored height changed. */
  set(key: string, height: number): boolean {
    if (height <= 0 || this.heights.get(key) === height) return false;
    this.heights.set(key, height);
    return true;
  }
}

interface Viewport {
  scrollTop: number;
  height: number;
}

function useViewport(scrollRef: RefObject<HTMLElement | null>, enabled: boolean): Viewport {
  const [viewport, setViewport] = useState<Viewport>({ scrollTop: 0, height: 0 });

  useEffect(() => {
    const el = scrollRef.current;
    if (!enabled || !el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setViewport((v) =>
        v.scrollTop === el.scrollTop && v.height === el.clientHeight ? v : { scrollTop: el.scrollTop, height: el.clientHeight },
      );
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(read);
    };
    schedule();
    el.addEventListener('scroll', schedule, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', schedule);
      observer?.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [scrollRef, enabled]);

  return viewport;
}

interface RangeInput<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  sizes: SizeCache;
  estimateSize: number;
  gap: number;
  viewport: Viewport;
  feedOffset: number;
  overscan: number;
}

interface Range {
  from: number;
  to: number;
  /** Space standing in for the items above `from` and below `to`. */
  before: number;
  after: number;
}

/** Which items to render. `_version` changes whenever a height is measured (cache key). */
function computeRange<T>({ items, getKey, sizes, estimateSize, gap, viewport, feedOffset, overscan }: RangeInput<T>, _version: number): Range {
  const starts = new Float64Array(items.length + 1);
  let total = 0;
  items.forEach((item, index) => {
    starts[index] = total;
    total += (sizes.get(getKey(item)) ?? estimateSize) + gap;
  });
  starts[items.length] = total;
  const top = Math.max(0, viewport.scrollTop - feedOffset);
  const bottom = top + Math.max(viewport.height, estimateSize);
  // First item whose bottom edge is below the top of the view (binary search).
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid + 1] ?? 0) <= top) lo = mid + 1;
    else hi = mid;
  }
  let last = lo;
  while (last < items.length - 1 && (starts[last + 1] ?? 0) < bottom) last++;
  const from = Math.max(0, lo - overscan);
  const to = Math.min(items.length - 1, last + overscan);
  return { from, to, before: starts[from] ?? 0, after: Math.max(0, total - (starts[to + 1] ?? total)) };
}

export function VirtualFeed<T>({
  items,
  getKey,
  renderItem,
  scrollRef,
  estimateSize,
  gap,
  setSize,
  busy = false,
  labelledBy,
  overscan = 6,
  threshold = 40,
  className,
}: VirtualFeedProps<T>) {
  const windowed = items.length > threshold;
  const viewport = useViewport(scrollRef, windowed);
  const feedRef = useRef<HTMLDivElement>(null);
  const [feedOffset, setFeedOffset] = useState(0);
  const [sizes] = useState(() => new SizeCache());
  const [measureVersion, setMeasureVersion] = useState(0);

  // One observer for all rendered items, created on first use; it files each item's height
  // under its key and asks for one re-render per frame at most.
  const observerRef = useRef<ResizeObserver | null>(null);
  const pendingBump = useRef(0);
  const measure = useCallback(
    (el: HTMLDivElement | null) => {
      if (!el || typeof ResizeObserver === 'undefined') return;
      observerRef.current ??= new ResizeObserver((entries) => {
        let changed = false;
        for (const entry of entries) {
          const key = (entry.target as HTMLElement).dataset.feedKey;
          const height = Math.round(entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height);
          if (key !== undefined && sizes.set(key, height)) changed = true;
        }
        if (changed && pendingBump.current === 0) {
          pendingBump.current = requestAnimationFrame(() => {
            pendingBump.current = 0;
            setMeasureVersion((v) => v + 1);
          });
        }
      });
      const observer = observerRef.current;
      observer.observe(el);
      return () => {
        observer.unobserve(el);
      };
    },
    [sizes],
  );
  useEffect(
    () => () => {
      observerRef.current?.disconnect();
      observerRef.current = null;
      if (pendingBump.current !== 0) cancelAnimationFrame(pendingBump.current);
      pendingBump.current = 0;
    },
    [],
  );

  // Where the feed starts inside the scroll container (a banner may sit above it).
  useLayoutEffect(() => {
    if (!windowed) return;
    const offset = feedRef.current?.offsetTop ?? 0;
    setFeedOffset((current) => (current === offset ? current : offset));
  }, [windowed, items.length]);

  const range = useMemo(
    () =>
      windowed
        ? computeRange({ items, getKey, sizes, estimateSize, gap, viewport, feedOffset, overscan }, measureVersion)
        : { from: 0, to: items.length - 1, before: 0, after: 0 },
    [windowed, items, getKey, sizes, estimateSize, gap, viewport, feedOffset, overscan, measureVersion],
  );

  const rendered: ReactNode[] = [];
  for (let index = range.from; index <= range.to; index++) {
    const item = items[index];
    if (item === undefined) continue;
    const key = getKey(item);
    rendered.push(
      <div key={key} ref={windowed ? measure : undefined} data-feed-key={key} className="virtual-feed__item">
        {renderItem(item, { 'aria-posinset': index + 1, 'aria-setsize': setSize })}
      </div>,
    );
  }

  return (
    <div
      ref={feedRef}
      role="feed"
      aria-labelledby={labelledBy}
      aria-busy={busy}
      className={className}
      style={windowed ? { paddingTop: range.before, paddingBottom: range.after } : undefined}
    >
      {rendered}
    </div>
  );
}

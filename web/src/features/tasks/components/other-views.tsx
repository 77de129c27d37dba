import { lazyComponent, type LazyComponent } from '#web/lib/lazy-component.tsx';
import type { BoardView } from '../api/board-view-choice.ts';
import type { ViewProps } from './view-props.ts';

/**
 * The views other than the board's columns, each a chunk of its own, fetched when first chosen —
 * or before the first render when the address opens one (app/routes.tsx, preloadFirstScreen), so
 * that it renders without suspending.
 */
export const OTHER_VIEWS: Record<Exclude<BoardView, 'board'>, LazyComponent<ViewProps>> = {
  table: lazyComponent(() => import('./table-view.tsx').then((module) => module.default)),
  calendar: lazyComponent(() => import('./calendar-view.tsx').then((module) => module.default)),
  timeline: lazyComponent(() => import('./timeline-view.tsx').then((module) => module.default)),
};

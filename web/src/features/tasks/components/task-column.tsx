import { plural, select } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import type { TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { OfflineUnavailable } from '#web/components/offline-unavailable.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { VirtualFeed } from '#web/components/virtual-feed.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { cx } from '#web/lib/cx.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useTaskColumn } from '../api/get-tasks.ts';
import { leavesTasksOut, type BoardFilter } from '../api/board-filter.ts';
import type { MoveDirection } from './card-behaviour.ts';
import { CompactTaskCard } from './compact-task-card.tsx';
import { TaskCard } from './task-card.tsx';
import type { EditDraft } from './task-edit-form.tsx';

/** Card height before it is measured, and the gap between cards (kept in step with the CSS). */
const CARD_ESTIMATE_PX = 188;
const COMPACT_ESTIMATE_PX = 56;
const CARD_GAP_PX = 12;
const COMPACT_GAP_PX = 6;

/** A column as the board shows it: one of the board's, or (`_id` null) a category of "All my tasks". */
export interface BoardColumn {
  _id: string | null;
  name: string;
  category: TaskStatus;
  wipLimit: number | null;
}

/** The names of the columns a new board has (as stored), whose empty states speak of the status itself. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- stored column names compared, not shown
const DEFAULT_COLUMN_NAMES = new Set(['Tasks To Do', 'Completed']);

export interface TaskColumnProps {
  column: BoardColumn;
  filter: BoardFilter;
  count: number | undefined;
  /** The column's count with no filter on (what its WIP limit is about); undefined while unknown. */
  wholeCount?: number | undefined;
  /** The card size the board shows. */
  compact: boolean;
  /** The column's menu (for who may change the board's columns). */
  menu?: ReactNode;
  /** A phone's column switcher: shown in the header in place of the name and count (still read out). */
  switcher?: ReactNode;
  /** Alt+arrows on a focused card (none where cards are not moved). */
  onMoveKey?: ((task: Task, direction: MoveDirection) => void) | undefined;
  /** Wraps each card (drag and drop); the card itself when not given. */
  wrapCard?: ((task: Task, card: ReactNode) => ReactNode) | undefined;
  now: Date;
  editing: EditDraft | null;
  onEdit: (task: Task) => void;
  onDraftChange: (draft: EditDraft) => void;
  onEditEnd: () => void;
  onDelete: (task: Task) => void;
}

const getKey = (task: Task) => task._id;

function SkeletonCards() {
  return (
    <div className="column__skeletons" aria-hidden="true">
      {[0, 1, 2].map((i) => (
        <div key={i} className="skeleton-card">
          <span className="skeleton skeleton--w40" />
          <span className="skeleton skeleton--w80 skeleton--lg" />
          <span className="skeleton skeleton--w60" />
          <span className="skeleton skeleton--w50" />
        </div>
      ))}
    </div>
  );
}

/** The title of an empty column: its status or name, the priority filtered on and the words searched, as one sentence. */
function useEmptyTitle(column: BoardColumn, filter: BoardFilter): string {
  const { t } = useLingui();
  // '' (no priority filter) is select's `other`.
  const priority = filter.priority;
  const query = filter.q;
  // A column the board's admins added speaks of itself.
  if (!DEFAULT_COLUMN_NAMES.has(column.name) && column._id !== null) {
    const name = displayName(column.name);
    return query
      ? t({
          message: select(priority, {
            urgent: `No urgent-priority tasks in ${name} match “${query}”`,
            high: `No high-priority tasks in ${name} match “${query}”`,
            normal: `No normal-priority tasks in ${name} match “${query}”`,
            low: `No low-priority tasks in ${name} match “${query}”`,
            other: `No tasks in ${name} match “${query}”`,
          }),
          comment: 'An empty column: its name, the priority filtered on (if any) and the words searched',
        })
      : t({
          message: select(priority, {
            urgent: `No urgent-priority tasks in ${name}`,
            high: `No high-priority tasks in ${name}`,
            normal: `No normal-priority tasks in ${name}`,
            low: `No low-priority tasks in ${name}`,
            other: `No tasks in ${name}`,
          }),
          comment: 'An empty column: its name and the priority filtered on (if any)',
        });
  }
  if (query && column.category === 'done') {
    return t({
      message: select(priority, {
        urgent: `No completed urgent-priority tasks match “${query}”`,
        high: `No completed high-priority tasks match “${query}”`,
        normal: `No completed normal-priority tasks match “${query}”`,
        low: `No completed low-priority tasks match “${query}”`,
        other: `No completed tasks match “${query}”`,
      }),
      comment: 'The empty column of completed tasks: the priority filtered on (if any) and the words searched',
    });
  }
  if (query) {
    return t({
      message: select(priority, {
        urgent: `No urgent-priority tasks match “${query}”`,
        high: `No high-priority tasks match “${query}”`,
        normal: `No normal-priority tasks match “${query}”`,
        low: `No low-priority tasks match “${query}”`,
        other: `No tasks match “${query}”`,
      }),
      comment: 'The empty column of tasks to do: the priority filtered on (if any) and the words searched',
    });
  }
  if (column.category === 'todo') {
    return t({
      message: select(priority, {
        urgent: 'No urgent-priority tasks to do',
        high: 'No high-priority tasks to do',
        normal: 'No normal-priority tasks to do',
        low: 'No low-priority tasks to do',
        other: 'No tasks to do',
      }),
      comment: 'The empty column of tasks to do, with the priority filtered on (if any)',
    });
  }
  return t({
    message: select(priority, {
      urgent: 'No completed urgent-priority tasks yet',
      high: 'No completed high-priority tasks yet',
      normal: 'No completed normal-priority tasks yet',
      low: 'No completed low-priority tasks yet',
      other: 'No completed tasks yet',
    }),
    comment: 'The empty column of completed tasks, with the priority filtered on (if any)',
  });
}

function EmptyState({ column, filter }: { column: BoardColumn; filter: BoardFilter }) {
  const status = column.category;
  const { priority } = filter;
  const title = useEmptyTitle(column, filter);
  // A column the board's admins added speaks of itself.
  if (!DEFAULT_COLUMN_NAMES.has(column.name) && column._id !== null) {
    return (
      <div className="column__empty column__empty--short">
        <p className="column__empty-title">{title}</p>
      </div>
    );
  }
  return (
    <div className="column__empty">
      <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
        <rect x="8" y="10" width="32" height="30" rx="6" fill="var(--brand-50)" stroke="var(--brand-200)" strokeWidth="2" />
        {status === 'done' ? (
          <path d="m17 25 5 5 9-10" fill="none" stroke="var(--brand-500)" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
        ) : (
          <path d="M16 21h16M16 28h10" stroke="var(--brand-500)" strokeWidth="2.5" strokeLinecap="round" />
        )}
      </svg>
      <p className="column__empty-title">{title}</p>
      <p className="column__empty-text">
        {filter.q || filter.view !== 'all' ? (
          <Trans>Try other words, another view or another filter.</Trans>
        ) : status === 'todo' ? (
          priority ? (
            <Trans>Try another filter, or create a task with this priority.</Trans>
          ) : (
            <Trans>You’re all caught up. Create a task to get things moving.</Trans>
          )
        ) : (
          <Trans>Tasks you mark complete will land here.</Trans>
        )}
      </p>
    </div>
  );
}

/** "6 / 5": the count against the WIP limit, in the warning colour when over it. */
function WipState({ count, limit }: { count: number | undefined; limit: number }) {
  const { t } = useLingui();
  const over = count !== undefined && count > limit;
  const wipLimit = formatNumber(limit);
  const said =
    count === undefined
      ? t`Unknown number of tasks, WIP limit ${wipLimit}`
      : over
        ? t({ message: plural(count, { one: `# task, WIP limit ${wipLimit}, over the limit`, other: `# tasks, WIP limit ${wipLimit}, over the limit` }), comment: 'A column’s number of tasks and its work-in-progress limit, which it is over' })
        : t({ message: plural(count, { one: `# task, WIP limit ${wipLimit}`, other: `# tasks, WIP limit ${wipLimit}` }), comment: 'A column’s number of tasks and its work-in-progress limit' });
  return (
    <span className={cx('column__wip', over && 'column__wip--over')}>
      <span aria-hidden="true">
        {count === undefined ? '–' : formatNumber(count)} / {wipLimit}
      </span>
      <span className="visually-hidden">{said}</span>
    </span>
  );
}

/**
 * One column: a paged query (the board's column in its own order, or a status of "All my
 * tasks") that loads the next page as the end comes into view, rendered as a windowed feed so
 * 20,000 completed tasks cost no more DOM than 20.
 */
export function TaskColumn({ column, filter, count, wholeCount, compact, menu, switcher, onMoveKey, wrapCard, now, editing, onEdit, onDraftChange, onEditEnd, onDelete }: TaskColumnProps) {
  const status = column.category;
  const headingId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const query = useTaskColumn(status, filter, column._id ?? undefined);
  const { data, error, isPending, isError, isFetching, isFetchingNextPage, isPlaceholderData, hasNextPage, fetchNextPage, refetch } = query;
  const tasks = useMemo(() => data?.pages.flatMap((page) => page.tasks) ?? [], [data]);
  const updating = isFetching && !isPending && !isFetchingNextPage;
  // Offline, a filter this device never loaded has nothing to show (the previous filter's cards
  // are not its cards): say so rather than wait for ever.
  const offline = query.fetchStatus === 'paused' && (data === undefined || isPlaceholderData);

  // Load the next page once the end of the list is near (600 px ahead of the edge).
  const canLoadMore = hasNextPage && !isFetchingNextPage && !isError;
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!canLoadMore || !sentinel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS margin, not a text
      { root: scrollRef.current, rootMargin: '600px 0px' },
    );
    observer.observe(sentinel);
    return () => {
      observer.disconnect();
    };
  }, [canLoadMore, fetchNextPage]);

  const loadError = errorText(error);
  // The server's count; else the cards, once the whole list of this filter is here (not while
  // it loads, nor the previous filter's cards shown meanwhile): never a number not yet known.
  const countLabel = count ?? (data === undefined || isPlaceholderData || hasNextPage ? undefined : tasks.length);

  return (
    // Busy while its cards are not yet those of the current filter; a quiet refresh of cards
    // already shown is not (a spinner in the header says so).
    <section
      className={cx('column', `column--${status}`, compact && 'column--compact')}
      aria-labelledby={headingId}
      aria-busy={(isPending || isPlaceholderData) && !offline}
      data-column-id={column._id ?? undefined}
    >
      <header className={cx('column__header', switcher !== undefined && 'column__header--switcher')}>
        <h2 className={switcher === undefined ? 'column__title' : 'visually-hidden'} id={headingId} tabIndex={-1} dir="auto">
          {displayName(column.name)}
        </h2>
        {switcher}
        {column.wipLimit !== null ? <WipState count={wholeCount ?? (leavesTasksOut(filter) ? undefined : countLabel)} limit={column.wipLimit} /> : <span className={cx('column__count', switcher !== undefined && 'visually-hidden')}>
          {countLabel === undefined ? (
            <>
              <span aria-hidden="true">–</span>
              <span className="visually-hidden">
                <Trans comment="A column’s number of tasks, not yet known">Count loading</Trans>
              </span>
            </>
          ) : (
            <>
              <span aria-hidden="true">{formatNumber(countLabel)}</span>
              <span className="visually-hidden">
                <Plural value={countLabel} one="# task" other="# tasks" />
              </span>
            </>
          )}
        </span>}
        {updating ? (
          <span className="column__updating">
            <Spinner size={14} />
            <span className="visually-hidden">
              <Trans comment="A column’s cards are being refreshed">Updating</Trans>
            </span>
          </span>
        ) : null}
        {menu}
      </header>

      <div className={cx('column__scroll', isPlaceholderData && 'column__scroll--stale')} ref={scrollRef}>
        {offline ? (
          <OfflineUnavailable className="column__offline" />
        ) : isPending ? (
          <>
            <p className="visually-hidden" role="status">
              <Trans>Loading tasks…</Trans>
            </p>
            <SkeletonCards />
          </>
        ) : isError && tasks.length === 0 ? (
          <RetryAlert onRetry={() => void refetch()}>
            <Trans>
              <strong>Couldn’t load these tasks.</strong> {loadError}
            </Trans>
          </RetryAlert>
        ) : tasks.length === 0 ? (
          <EmptyState column={column} filter={filter} />
        ) : (
          <>
            {isError && !isFetchingNextPage ? (
              <RetryAlert className="column__banner" onRetry={() => void (hasNextPage ? fetchNextPage() : refetch())}>
                {loadError}
              </RetryAlert>
            ) : null}
            <VirtualFeed
              items={tasks}
              getKey={getKey}
              scrollRef={scrollRef}
              estimateSize={compact ? COMPACT_ESTIMATE_PX : CARD_ESTIMATE_PX}
              gap={compact ? COMPACT_GAP_PX : CARD_GAP_PX}
              setSize={count ?? -1}
              busy={isFetchingNextPage}
              labelledBy={headingId}
              className="column__feed"
              renderItem={(task, itemProps) => {
                const card = compact ? (
                  <CompactTaskCard task={task} now={now} onMoveKey={onMoveKey} {...itemProps} />
                ) : (
                  <TaskCard
                    task={task}
                    now={now}
                    draft={editing?.id === task._id ? editing : null}
                    onEdit={onEdit}
                    onDraftChange={onDraftChange}
                    onEditEnd={onEditEnd}
                    onDelete={onDelete}
                    onMoveKey={onMoveKey}
                    {...itemProps}
                  />
                );
                return wrapCard ? wrapCard(task, card) : card;
              }}
            />
            {hasNextPage ? (
              <div ref={sentinelRef} className="column__more">
                <Button size="sm" variant="ghost" busy={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                  {isFetchingNextPage ? <Trans>Loading more…</Trans> : <Trans>Load more tasks</Trans>}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

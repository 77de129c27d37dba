import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Column } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { cx } from '#web/lib/cx.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { useNow } from '#web/lib/use-now.ts';
import { NARROW_SCREEN_QUERY } from '#web/lib/use-popover.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useShortcuts } from '#web/lib/use-shortcuts.ts';
import { useCanCreateHere } from '../api/board-scope.ts';
import { DEFAULT_FILTER, fromOldAddress, leavesTasksOut, parseBoardFilter, withFilter, type BoardFilter } from '../api/board-filter.ts';
import { useTaskCounts } from '../api/get-task-counts.ts';
import { useBoardStaleTime } from '../api/live-board-context.ts';
import { taskColumnQueryOptions, taskCountsQueryOptions } from '../api/task-queries.ts';
import { viewTasksQueryOptions } from '../api/view-tasks.ts';
import { useChangeColumns, type ColumnChange } from '../api/change-columns.ts';
import { BoardControls, OverdueCount, type SearchHandle } from './board-toolbar.tsx';
import { CardSizeToggle, ColumnSwitcher, GroupSelect, useCardSize } from './board-view.tsx';
import { GroupedBoard } from './grouped-board.tsx';
import { useBoardGroup } from '../api/board-group.ts';
import { AddColumnButton, ColumnMenu } from './column-menu.tsx';
import { useCardMoves } from './card-moves.tsx';
import { CreateTaskForm } from './create-task-form.tsx';
import { DeleteTaskDialog } from './delete-task-dialog.tsx';
import { editDraftOf, type EditDraft } from './task-edit-form.tsx';
import { TaskColumn, type BoardColumn } from './task-column.tsx';
import { ViewSwitcher } from './view-switcher.tsx';
import { BulkBar } from './bulk-bar.tsx';
import type { BoardView } from '../api/board-view-choice.ts';
import { useBoardView } from '../api/use-board-view.ts';
import type { ViewProps } from './view-props.ts';
import { OTHER_VIEWS } from './other-views.tsx';
import './task-board.css';

export interface TaskBoardProps {
  /** One board's tasks (`board=` on every list and count); none: every task the viewer sees. */
  boardId?: string;
  /** The page's heading; "Tasks" when not given. */
  title?: string;
  /** Beside the heading: the board switcher's button on narrow screens. */
  headingExtra?: ReactNode;
  /** Under the heading: a line about the board (its members, its settings). */
  subtitle?: ReactNode;
  /** The board's columns, left to right; none: "All my tasks", in two columns by category. */
  columns?: readonly Column[] | undefined;
  /** Whether the viewer may change the board's columns (the server decides; this offers the menu). */
  canChangeColumns?: boolean;
  /** After a change of the board's columns: asks for the board (its columns) again. */
  onColumnsChanged?: () => Promise<unknown>;
}

/**
 * "All my tasks" spans boards whose columns differ: its two columns are the categories, named as
 * a new board's columns are (the product's own names, shown through displayName()).
 */
const CATEGORY_COLUMNS: readonly BoardColumn[] = [
  { _id: null, name: 'Tasks To Do', category: 'todo', wipLimit: null },
  { _id: null, name: 'Completed', category: 'done', wipLimit: null },
];

const columnKey = (column: BoardColumn) => column._id ?? column.category;

const noRefresh = () => Promise.resolve();

/** A view other than the columns, loaded on first use; "Loading…" meanwhile. */
function OtherView({ view, ...props }: ViewProps & { view: Exclude<BoardView, 'board'> }) {
  const View = OTHER_VIEWS[view];
  return (
    <Suspense
      fallback={
        <p className="board__view-loading">
          <Trans>Loading…</Trans>
        </p>
      }
    >
      <View {...props} />
    </Suspense>
  );
}

/**
 * The board: a header with "Create Task", the filters (kept in the URL, so a reload or a shared
 * link shows the same view), the card size (kept on the device), and the board's columns left
 * to right ("All my tasks": its two categories). A phone shows one column at a time.
 */
export function TaskBoard({
  boardId = '',
  title,
  headingExtra,
  subtitle = (
    <p className="board__subtitle">
      <Trans>Everything you assigned, and everything assigned to you.</Trans>
    </p>
  ),
  columns: boardColumns,
  canChangeColumns = false,
  onColumnsChanged = noRefresh,
}: TaskBoardProps) {
  const { t } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const { priority, view, q, sort, label } = parseBoardFilter(searchParams, boardId);
  // An old address's `?view=assigned-to-me` (read as it is meanwhile) becomes `?show=` in place.
  useEffect(() => {
    const current = fromOldAddress(searchParams);
    if (current) setSearchParams(current, { replace: true });
  }, [searchParams, setSearchParams]);
  // One object per distinct filter, so effects and memoized cards see a change only when there is one.
  const filter = useMemo<BoardFilter>(() => ({ priority, view, q, sort, board: boardId, label }), [priority, view, q, sort, boardId, label]);
  const canCreate = useCanCreateHere();
  const [boardView, setBoardView] = useBoardView(boardId);
  const [group, setGroup] = useBoardGroup();
  const [laneAnnouncement, setLaneAnnouncement] = useState('');
  const searchRef = useRef<SearchHandle>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const [editing, setEditing] = useState<EditDraft | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const counts = useTaskCounts(filter);
  const now = useNow(30_000);
  const columns: readonly BoardColumn[] = boardColumns ?? CATEGORY_COLUMNS;
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const [cardSize, setCardSize] = useCardSize();
  const compact = cardSize === 'compact';
  const [shownColumn, setShownColumn] = useState<string | null>(null);
  const changeColumns = useChangeColumns(boardId, onColumnsChanged);
  const { mutateAsync: sendColumnChange } = changeColumns;
  const changeColumn = useCallback((change: ColumnChange) => sendColumnChange(change), [sendColumnChange]);
  const { onMoveKey, wrapCard, columnsRef, announcement } = useCardMoves({ columns: boardColumns, filter, counts: counts.data, canChangeColumns, changeColumns: changeColumn });
  const countIn = (data: typeof counts.data, column: BoardColumn): number | undefined =>
    column._id === null ? data?.[column.category] : (data?.columns?.[column._id] ?? undefined);
  const countOf = (column: BoardColumn) => countIn(counts.data, column);
  // A WIP limit, and whether a column is empty when it is deleted, are about every task of the
  // column, not the ones a filter shows: with a filter on, those counts are asked for too (only
  // on a board that has a limit or whose columns the viewer changes).
  const filtered = leavesTasksOut(filter);
  const wholeFilter = useMemo<BoardFilter>(() => ({ ...DEFAULT_FILTER, sort: filter.sort, board: filter.board }), [filter.sort, filter.board]);
  const wholeCounts = useTaskCounts(wholeFilter, filtered && (canChangeColumns || columns.some((column) => column.wipLimit !== null)));
  const wholeCountOf = (column: BoardColumn) => (filtered ? countIn(wholeCounts.isPlaceholderData ? undefined : wholeCounts.data, column) : countOf(column));
  // A phone shows one column: the one chosen in the switcher, else the first.
  const shown = narrow ? [columns.find((column) => columnKey(column) === shownColumn) ?? columns[0]].filter((c) => c !== undefined) : columns;

  const queryClient = useQueryClient();
  const staleTime = useBoardStaleTime();
  // A view of every task (a table, calendar or timeline, or grouped lanes) asks for its tasks
  // now, while its code is still loading, rather than once it has loaded: the first screen
  // comes a round trip sooner. The view's own hook finds the read under way.
  const readsEveryTask = boardView !== 'board' || group !== 'none';
  useEffect(() => {
    // A failure is the view's to show (its hook asks again); here it is only swallowed.
    if (readsEveryTask) queryClient.query(viewTasksQueryOptions(filter, staleTime)).catch(() => undefined);
  }, [readsEveryTask, queryClient, filter, staleTime]);
  const changeFilter = useCallback(
    (change: Partial<BoardFilter>) => {
      const next = withFilter(searchParams, change, boardId);
      // The new filter's lists and counts are asked for at once, before the board re-renders
      // with the new address (the hooks then find them under way): about 20 ms sooner.
      const nextFilter = parseBoardFilter(next, boardId);
      // A failure is the hooks' to show (they ask again); here it is only swallowed.
      const ignore = () => undefined;
      for (const column of columns) {
        queryClient.infiniteQuery(taskColumnQueryOptions(column.category, nextFilter, staleTime, column._id ?? undefined)).catch(ignore);
      }
      queryClient.query(taskCountsQueryOptions(nextFilter, staleTime)).catch(ignore);
      setSearchParams(next, { replace: true });
    },
    [queryClient, searchParams, setSearchParams, staleTime, boardId, columns],
  );

  useShortcuts({
    n: () => {
      if (canCreate) setPanelOpen(true);
    },
    '/': () => {
      searchRef.current?.focus();
    },
  });

  const onEdit = useCallback((task: Task) => {
    setEditing(editDraftOf(task));
  }, []);
  const onEditEnd = useCallback(() => {
    setEditing(null);
  }, []);
  const onDelete = useCallback((task: Task) => {
    setDeleting(task);
  }, []);
  const fallbackFocus = useCallback(() => headingRef.current, []);

  const columnProps = { filter, now, editing, onEdit, onDraftChange: setEditing, onEditEnd, onDelete, compact, onMoveKey, wrapCard };
  const boardOnly = boardColumns ?? [];

  return (
    <div className="board">
      <header className="board__header">
        <div className="board__heading-row">
          <PageHeading className="board__title" ref={headingRef} dir={title === undefined ? undefined : 'auto'}>
            {title ?? t({ message: 'Tasks', comment: 'Heading of “All my tasks”, the page of every task the viewer assigned or was assigned' })}
          </PageHeading>
          {headingExtra}
          <OverdueCount count={counts.data?.overdue} />
          <span className="board__heading-spacer" />
          {canCreate ? (
            <Button
              variant="primary"
              size="lg"
              className="board__create"
              icon={
                <svg viewBox="0 0 16 16" aria-hidden="true">
                  <path stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" d="M8 3v10M3 8h10" />
                </svg>
              }
              onClick={() => {
                setPanelOpen(true);
              }}
              aria-haspopup="dialog"
              aria-keyshortcuts="n"
            >
              <span className="board__create-label">
                <Trans>Create Task</Trans>
              </span>
            </Button>
          ) : null}
        </div>
        {subtitle}
      </header>

      <BoardControls
        filter={filter}
        onChange={changeFilter}
        searchRef={searchRef}
        views={<ViewSwitcher value={boardView} onChange={setBoardView} single={narrow} />}
        extra={boardView === 'board' ? <CardSizeToggle value={cardSize} onChange={setCardSize} /> : undefined}
        group={boardView === 'board' || boardView === 'table' ? <GroupSelect value={group} onChange={setGroup} /> : undefined}
      />

      {boardView === 'board' && group !== 'none' ? (
        <GroupedBoard
          group={group}
          columns={shown}
          movable={boardColumns !== undefined}
          switcher={
            narrow && columns.length > 1 ? (
              <ColumnSwitcher
                columns={columns.map((c) => ({ key: columnKey(c), name: displayName(c.name), count: countOf(c) }))}
                value={shown[0] ? columnKey(shown[0]) : ''}
                onChange={setShownColumn}
              />
            ) : undefined
          }
          onAnnounce={setLaneAnnouncement}
          filter={filter}
          compact={compact}
          now={now}
          editing={editing}
          onEdit={onEdit}
          onDraftChange={setEditing}
          onEditEnd={onEditEnd}
          onDelete={onDelete}
        />
      ) : boardView === 'board' ? (
      <div
        className={cx('board__columns', boardColumns && 'board__columns--workflow')}
        ref={columnsRef}
        style={boardColumns ? ({ '--columns': shown.length } as CSSProperties) : undefined}
      >
        {shown.map((column) => (
          <TaskColumn
            key={columnKey(column)}
            column={column}
            count={countOf(column)}
            wholeCount={wholeCountOf(column)}
            switcher={
              narrow && columns.length > 1 ? (
                <ColumnSwitcher
                  columns={columns.map((c) => ({ key: columnKey(c), name: displayName(c.name), count: countOf(c) }))}
                  value={columnKey(column)}
                  onChange={setShownColumn}
                />
              ) : undefined
            }
            menu={
              canChangeColumns && column._id !== null ? (
                <ColumnMenu column={column as Column} columns={boardOnly} count={wholeCountOf(column)} onChange={changeColumn} canAdd={narrow} />
              ) : undefined
            }
            {...columnProps}
          />
        ))}
        {canChangeColumns && boardColumns && !narrow ? <AddColumnButton lastId={boardColumns.at(-1)?._id} onChange={changeColumn} /> : null}
      </div>
      ) : (
        <OtherView view={boardView} filter={filter} boardId={boardId} columns={boardColumns} group={group} />
      )}
      {boardView === 'board' || boardView === 'table' ? <BulkBar boardId={boardId} columns={boardColumns} filter={filter} /> : null}
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="move-announcer">
        {group !== 'none' && boardView === 'board' ? laneAnnouncement : announcement}
      </p>

      <Dialog
        open={panelOpen}
        onClose={() => {
          setPanelOpen(false);
        }}
        title={t`Create Task`}
        description={t`Assign work to anyone by e-mail address.`}
        closeLabel={t`Close`}
      >
        <CreateTaskForm />
      </Dialog>

      <DeleteTaskDialog
        task={deleting}
        onClose={() => {
          setDeleting(null);
        }}
        fallbackFocus={fallbackFocus}
      />
    </div>
  );
}

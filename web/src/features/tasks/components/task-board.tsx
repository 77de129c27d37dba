import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { useNow } from '#web/lib/use-now.ts';
import { useShortcuts } from '#web/lib/use-shortcuts.ts';
import { useCanCreateHere } from '../api/board-scope.ts';
import { fromOldAddress, parseBoardFilter, withFilter, type BoardFilter } from '../api/board-filter.ts';
import { useTaskCounts } from '../api/get-task-counts.ts';
import { useBoardStaleTime } from '../api/live-board-context.ts';
import { taskColumnQueryOptions, taskCountsQueryOptions } from '../api/task-queries.ts';
import { BoardControls, OverdueCount, type SearchHandle } from './board-toolbar.tsx';
import { CreateTaskForm } from './create-task-form.tsx';
import { DeleteTaskDialog } from './delete-task-dialog.tsx';
import type { EditDraft } from './task-edit-form.tsx';
import { TaskColumn } from './task-column.tsx';
import './task-board.css';

export interface TaskBoardProps {
  /** One board's tasks (`board=` on every list and count); none: every task the viewer sees. */
  boardId?: string;
  /** The page's heading. */
  title?: string;
  /** Beside the heading: the board switcher's button on narrow screens. */
  headingExtra?: ReactNode;
  /** Under the heading: a line about the board (its members, its settings). */
  subtitle?: ReactNode;
}

/**
 * The board: a header with "Create Task", the priority filter (kept in the URL, so a reload
 * or a shared link shows the same view), and the two status columns.
 */
export function TaskBoard({
  boardId = '',
  title = 'Tasks',
  headingExtra,
  subtitle = <p className="board__subtitle">Everything you assigned, and everything assigned to you.</p>,
}: TaskBoardProps) {
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
  const searchRef = useRef<SearchHandle>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const [editing, setEditing] = useState<EditDraft | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const counts = useTaskCounts(filter);
  const now = useNow(30_000);

  const queryClient = useQueryClient();
  const staleTime = useBoardStaleTime();
  const changeFilter = useCallback(
    (change: Partial<BoardFilter>) => {
      const next = withFilter(searchParams, change);
      // The new filter's lists and counts are asked for at once, before the board re-renders
      // with the new address (the hooks then find them under way): about 20 ms sooner.
      const nextFilter = parseBoardFilter(next, boardId);
      // A failure is the hooks' to show (they ask again); here it is only swallowed.
      const ignore = () => undefined;
      queryClient.infiniteQuery(taskColumnQueryOptions('todo', nextFilter, staleTime)).catch(ignore);
      queryClient.infiniteQuery(taskColumnQueryOptions('done', nextFilter, staleTime)).catch(ignore);
      queryClient.query(taskCountsQueryOptions(nextFilter, staleTime)).catch(ignore);
      setSearchParams(next, { replace: true });
    },
    [queryClient, searchParams, setSearchParams, staleTime, boardId],
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
    setEditing({ id: task._id, assignee: task.assignee, priority: task.priority, base: task });
  }, []);
  const onEditEnd = useCallback(() => {
    setEditing(null);
  }, []);
  const onDelete = useCallback((task: Task) => {
    setDeleting(task);
  }, []);
  const fallbackFocus = useCallback(() => headingRef.current, []);

  const columnProps = { filter, now, editing, onEdit, onDraftChange: setEditing, onEditEnd, onDelete };

  return (
    <div className="board">
      <header className="board__header">
        <div className="board__heading-row">
          <PageHeading className="board__title" ref={headingRef}>
            {title}
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
              <span className="board__create-label">Create Task</span>
            </Button>
          ) : null}
        </div>
        {subtitle}
      </header>

      <BoardControls filter={filter} onChange={changeFilter} searchRef={searchRef} />

      <div className="board__columns">
        <TaskColumn status="todo" title="Tasks To Do" count={counts.data?.todo} {...columnProps} />
        <TaskColumn status="done" title="Completed" count={counts.data?.done} {...columnProps} />
      </div>

      <Dialog
        open={panelOpen}
        onClose={() => {
          setPanelOpen(false);
        }}
        title="Create Task"
        description="Assign work to anyone by e-mail address."
        closeLabel="Close"
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

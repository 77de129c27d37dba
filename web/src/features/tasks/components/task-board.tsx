import { useCallback, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { useNow } from '#web/lib/use-now.ts';
import { useTaskCounts } from '../api/get-task-counts.ts';
import { parsePriorityFilter, type PriorityFilter as Filter } from '../api/query-keys.ts';
import { CreateTaskForm } from './create-task-form.tsx';
import { DeleteTaskDialog } from './delete-task-dialog.tsx';
import { PriorityFilter } from './priority-filter.tsx';
import type { EditDraft } from './task-card.tsx';
import { TaskColumn } from './task-column.tsx';
import './task-board.css';

/**
 * The board: a header with "Create Task", the priority filter (kept in the URL, so a reload
 * or a shared link shows the same view), and the two status columns.
 */
export function TaskBoard() {
  const [searchParams, setSearchParams] = useSearchParams();
  const priority = parsePriorityFilter(searchParams.get('priority'));
  const [panelOpen, setPanelOpen] = useState(false);
  const [editing, setEditing] = useState<EditDraft | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const counts = useTaskCounts(priority);
  const now = useNow(30_000);

  const onFilter = (next: Filter) => {
    setSearchParams(next ? { priority: next } : {}, { replace: true });
  };

  const onEdit = useCallback((task: Task) => {
    setEditing({ id: task._id, assignee: task.assignee, priority: task.priority });
  }, []);
  const onEditEnd = useCallback(() => {
    setEditing(null);
  }, []);
  const onDelete = useCallback((task: Task) => {
    setDeleting(task);
  }, []);
  const fallbackFocus = useCallback(() => headingRef.current, []);

  const columnProps = { priority, now, editing, onEdit, onDraftChange: setEditing, onEditEnd, onDelete };

  return (
    <div className="board">
      <header className="board__header">
        <div>
          <PageHeading className="board__title" ref={headingRef}>
            Tasks
          </PageHeading>
          <p className="board__subtitle">Everything you assigned, and everything assigned to you.</p>
        </div>
        <Button
          variant="primary"
          size="lg"
          icon={
            <svg viewBox="0 0 16 16" aria-hidden="true">
              <path stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" d="M8 3v10M3 8h10" />
            </svg>
          }
          onClick={() => {
            setPanelOpen(true);
          }}
          aria-haspopup="dialog"
        >
          Create Task
        </Button>
      </header>

      <div className="board__toolbar">
        <PriorityFilter value={priority} onChange={onFilter} />
      </div>

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

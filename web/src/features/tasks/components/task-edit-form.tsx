import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import type { Priority } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { checkEmail } from '#shared/validation.ts';
import { Button } from '#web/components/button.tsx';
import { EmailField } from '#web/components/field.tsx';
import { useUpdateTask } from '../api/update-task.ts';
import { PrioritySelect } from './priority.tsx';

export interface EditDraft {
  id: string;
  assignee: string;
  priority: Priority;
  /**
   * The task as it was when editing began: the save is based on it (its version), so a change
   * someone else made meanwhile answers 409 and opens the conflict dialog instead of being
   * overwritten.
   */
  base: Task;
}

/** A card's inline edit of assignee and priority. */
export function TaskEditForm({
  task,
  draft,
  onDraftChange,
  onEditEnd,
}: {
  task: Task;
  draft: EditDraft;
  onDraftChange: (draft: EditDraft) => void;
  onEditEnd: (saved: boolean) => void;
}) {
  const update = useUpdateTask();
  const [fieldError, setFieldError] = useState<string | null>(null);
  const assigneeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    assigneeRef.current?.focus();
    assigneeRef.current?.select();
  }, []);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = checkEmail(draft.assignee);
    if (!email.ok) {
      setFieldError(draft.assignee.trim() === '' ? 'Enter the assignee’s e-mail address.' : email.message);
      assigneeRef.current?.focus();
      return;
    }
    setFieldError(null);
    const base = draft.base;
    if (email.value === base.assignee && draft.priority === base.priority) {
      onEditEnd(false);
      return;
    }
    // Shown at once; a failure rolls the card back and says why, a conflict opens its dialog.
    const changes = {
      ...(email.value === base.assignee ? {} : { assignee: email.value }),
      ...(draft.priority === base.priority ? {} : { priority: draft.priority }),
    };
    update.mutate({ task: base, changes });
    onEditEnd(true);
  };

  return (
    <form
      className="task-edit"
      onSubmit={onSubmit}
      noValidate
      aria-label={`Edit ${task.taskTitle}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onEditEnd(false);
        }
      }}
    >
      <div className="task-edit__fields">
        <EmailField
          ref={assigneeRef}
          label="Assignee"
          autoComplete="off"
          required
          value={draft.assignee}
          error={fieldError}
          onChange={(event) => {
            onDraftChange({ ...draft, assignee: event.target.value });
          }}
        />
        <PrioritySelect
          value={draft.priority}
          onChange={(priority) => {
            onDraftChange({ ...draft, priority });
          }}
        />
      </div>
      <div className="task-edit__actions">
        <Button type="submit" variant="primary" size="sm">
          Save
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            onEditEnd(false);
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}

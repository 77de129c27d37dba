import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import type { Priority } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { checkEmail } from '#shared/validation.ts';
import { Button } from '#web/components/button.tsx';
import { EmailField } from '#web/components/field.tsx';
import { useUpdateTask } from '../api/update-task.ts';
import { formatDeadline, toDateTimeLocal } from '../utils/deadline.ts';
import { PrioritySelect } from './priority.tsx';
import { readStart, StartField } from './start-field.tsx';

export interface EditDraft {
  id: string;
  assignee: string;
  priority: Priority;
  /** When the work starts, as a `datetime-local` value; "": none. */
  startAt: string;
  /**
   * The task as it was when editing began: the save is based on it (its version), so a change
   * someone else made meanwhile answers 409 and opens the conflict dialog instead of being
   * overwritten.
   */
  base: Task;
}

/** The start as the form shows it: local wall-clock time to the minute, "" for none. */
function startText(task: Task): string {
  return task.startAt ? toDateTimeLocal(new Date(task.startAt)) : '';
}

/** The draft an edit of `task` begins with: the task as it is. */
export function editDraftOf(task: Task): EditDraft {
  return { id: task._id, assignee: task.assignee, priority: task.priority, startAt: startText(task), base: task };
}

type FieldErrors = Partial<Record<'assignee' | 'startAt', string>>;

/**
 * A card's inline edit of assignee, priority and start. The start is checked here against the
 * task's deadline; should the server still refuse it (the deadline changed meanwhile), the card
 * rolls back and the refusal is shown as a notice.
 */
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
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const assigneeRef = useRef<HTMLInputElement>(null);
  const startRef = useRef<HTMLInputElement>(null);
  const { t } = useLingui();

  useEffect(() => {
    assigneeRef.current?.focus();
    assigneeRef.current?.select();
  }, []);

  const title = task.taskTitle;
  const deadline = draft.base.deadline ? formatDeadline(new Date(draft.base.deadline), new Date()) : null;

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const base = draft.base;
    const email = checkEmail(draft.assignee);
    const start = readStart(draft.startAt, base.deadline);
    const errors: FieldErrors = {};
    if (!email.ok) errors.assignee = draft.assignee.trim() === '' ? t`Enter the assignee’s e-mail address.` : email.message;
    if (!start.ok) errors.startAt = start.message;
    setFieldErrors(errors);
    if (!email.ok || !start.ok) {
      (errors.assignee ? assigneeRef : startRef).current?.focus();
      return;
    }
    // Compared as shown (to the minute), so a start with seconds left alone is not sent back.
    const startChanged = draft.startAt !== startText(base);
    if (email.value === base.assignee && draft.priority === base.priority && !startChanged) {
      onEditEnd(false);
      return;
    }
    // Shown at once; a failure rolls the card back and says why, a conflict opens its dialog.
    const changes = {
      ...(email.value === base.assignee ? {} : { assignee: email.value }),
      ...(draft.priority === base.priority ? {} : { priority: draft.priority }),
      ...(startChanged ? { startAt: start.iso } : {}),
    };
    update.mutate({ task: base, changes });
    onEditEnd(true);
  };

  return (
    <form
      className="task-edit"
      onSubmit={onSubmit}
      noValidate
      aria-label={t({ message: `Edit ${title}`, comment: 'Name of a card’s inline edit form: the task’s title' })}
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
          label={t`Assignee`}
          autoComplete="off"
          required
          value={draft.assignee}
          error={fieldErrors.assignee}
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
        <StartField
          ref={startRef}
          className="task-edit__start"
          value={draft.startAt}
          error={fieldErrors.startAt}
          hint={deadline ? t`Not after the deadline, ${deadline}.` : t`In your time zone.`}
          onChange={(startAt) => {
            onDraftChange({ ...draft, startAt });
          }}
        />
      </div>
      <div className="task-edit__actions">
        <Button type="submit" variant="primary" size="sm">
          <Trans comment="Saves a card’s inline edit">Save</Trans>
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            onEditEnd(false);
          }}
        >
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type SubmitEvent } from 'react';
import { DEFAULT_PRIORITY, LIMITS, type Priority } from '#shared/constants.ts';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { CreateTaskBody } from '#shared/schemas/tasks.ts';
import { checkDeadline, checkEmail, checkTaskTitle, checkWorkTitle } from '#shared/validation.ts';
import { Button } from '#web/components/button.tsx';
import { FormAlert } from '#web/components/form-alert.tsx';
import { EmailField, SelectField, TextField } from '#web/components/field.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useNow } from '#web/lib/use-now.ts';
import { submitQueued } from '#web/lib/write-queue.ts';
import { personalBoardOf, useBoardScope, writableBoards } from '../api/board-scope.ts';
import { useCreateTask } from '../api/create-task.ts';
import { dateTimeLocalToIso, toDateTimeLocal } from '../utils/deadline.ts';
import { PrioritySelect } from './priority.tsx';
import { incompleteDateTime, readStart, StartField } from './start-field.tsx';
import { NewTaskLabelsField } from './task-labels.tsx';
import { NO_REPEAT, readRepeat, RepeatField, type RepeatDraft } from './repeat-field.tsx';
import { i18n } from '@lingui/core';

interface Values {
  workTitle: string;
  taskTitle: string;
  assignee: string;
  deadline: string;
  /** When the work starts (`datetime-local`); "": none. */
  startAt: string;
  priority: Priority;
  /** "" until the boards are known: the board on screen, else Personal. */
  boardId: string;
  repeat: RepeatDraft;
}

type FieldErrors = Partial<Record<keyof Values, string>>;

const EMPTY: Values = { workTitle: '', taskTitle: '', assignee: '', deadline: '', startAt: '', priority: DEFAULT_PRIORITY, boardId: '', repeat: NO_REPEAT };

/** Server field names that map onto this form's fields. */
const FIELD_NAMES = new Set<string>(['workTitle', 'taskTitle', 'assignee', 'deadline', 'startAt', 'priority', 'boardId', 'repeat']);

/**
 * The new-task form of the side panel. Success resets it (the panel stays open for the next
 * one) and the board refreshes; failure keeps every value and shows the server's message.
 */
export function CreateTaskForm() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const create = useCreateTask();
  const scope = useBoardScope();
  const boards = writableBoards(scope.boards);
  // The board on screen when the viewer may create there, else their personal board.
  const defaultBoardId = boards.find((board) => board._id === scope.boardId)?._id ?? personalBoardOf(boards)?._id ?? '';
  const boardId = values.boardId || defaultBoardId;
  // Labels are the board's: another board chosen, the ones picked go.
  const [picked, setPicked] = useState<{ boardId: string; labels: Label[] }>({ boardId: '', labels: [] });
  const labels = picked.boardId === boardId ? picked.labels : [];
  const now = useNow(30_000);
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const taskTitleRef = useRef<HTMLInputElement>(null);
  const assigneeRef = useRef<HTMLInputElement>(null);
  const deadlineRef = useRef<HTMLInputElement>(null);
  const startRef = useRef<HTMLInputElement>(null);
  const { t } = useLingui();

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setSuccess(null);
  };

  const showFormError = (text: string) => {
    setFormError(text);
    requestAnimationFrame(() => alertRef.current?.focus());
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    setSuccess(null);

    // The assignee rule, with its exact text, before anything else.
    if (values.taskTitle.trim() === '' || values.assignee.trim().length < LIMITS.assigneeMin) {
      setFieldErrors({});
      showFormError(i18n._(CLIENT_MESSAGES.taskRequired));
      return;
    }

    const title = checkTaskTitle(values.taskTitle);
    const work = checkWorkTitle(values.workTitle);
    const assignee = checkEmail(values.assignee);
    const deadlineIso = values.deadline ? dateTimeLocalToIso(values.deadline) : null;
    const deadline = values.deadline && !deadlineIso ? null : checkDeadline(deadlineIso, new Date());
    const errors: FieldErrors = {};
    if (!work.ok) errors.workTitle = i18n._(work.message);
    if (!title.ok) errors.taskTitle = i18n._(title.message);
    if (!assignee.ok) errors.assignee = assignee.message;
    if (deadline === null) errors.deadline = incompleteDateTime();
    else if (!deadline.ok) errors.deadline = deadline.message;
    const start = readStart(values.startAt, deadlineIso);
    if (!start.ok) errors.startAt = start.message;
    const repeat = readRepeat(values.repeat);
    if (!repeat.ok) errors.repeat = repeat.message;
    setFieldErrors(errors);
    if (!title.ok || !work.ok || !assignee.ok || !deadline?.ok || !start.ok || !repeat.ok) {
      const invalid = errors.taskTitle ? taskTitleRef : errors.assignee ? assigneeRef : errors.startAt ? startRef : errors.deadline ? deadlineRef : firstFieldRef;
      invalid.current?.focus();
      return;
    }

    const body: CreateTaskBody = {
      taskTitle: title.value,
      assignee: assignee.value,
      priority: values.priority,
      ...(boardId ? { boardId } : {}),
      ...(work.value ? { workTitle: work.value } : {}),
      ...(deadlineIso ? { deadline: deadlineIso } : {}),
      ...(start.iso ? { startAt: start.iso } : {}),
      ...(labels.length > 0 ? { labelIds: labels.map((label) => label._id) } : {}),
      ...(repeat.value ? { repeat: repeat.value } : {}),
    };
    const ready = (message: string) => {
      // The next task goes to the same board.
      setValues({ ...EMPTY, boardId: values.boardId });
      setPicked({ boardId: '', labels: [] });
      setFieldErrors({});
      setSuccess(message);
      firstFieldRef.current?.focus();
    };
    // Offline the task waits in this device's queue (its card shows at once): the form is free
    // for the next one at once.
    const queued = () => {
      ready(i18n._(CLIENT_MESSAGES.createdOffline));
    };
    submitQueued(create.mutate, body, queued, {
      onSuccess: ({ message }) => {
        ready(message);
      },
      onError: (error) => {
        if (isUnauthorized(error)) return;
        if (isApiError(error)) {
          const serverFieldErrors: FieldErrors = {};
          for (const item of error.errors) {
            if (FIELD_NAMES.has(item.field)) serverFieldErrors[item.field as keyof Values] = item.message;
          }
          setFieldErrors(serverFieldErrors);
        }
        showFormError(errorText(error));
      },
    });
  };

  return (
    <form className="create-task" onSubmit={onSubmit} noValidate aria-label={t`New task`}>
      <FormAlert error={formError} errorRef={alertRef} note={{ tone: 'success', text: success }} className="create-task__alert" />
      <TextField
        ref={firstFieldRef}
        label={t`Work title`}
        optional
        name="workTitle"
        autoComplete="off"
        maxLength={LIMITS.workTitleMax}
        placeholder={t`e.g. Website launch`}
        value={values.workTitle}
        error={fieldErrors.workTitle}
        onChange={(event) => {
          set('workTitle', event.target.value);
        }}
      />
      <TextField
        ref={taskTitleRef}
        label={t`Task title`}
        name="taskTitle"
        autoComplete="off"
        required
        minLength={LIMITS.taskTitleMin}
        maxLength={LIMITS.taskTitleMax}
        placeholder={t`What needs to be done?`}
        value={values.taskTitle}
        error={fieldErrors.taskTitle}
        onChange={(event) => {
          set('taskTitle', event.target.value);
        }}
      />
      <EmailField
        ref={assigneeRef}
        label={t`Assignee`}
        name="assignee"
        autoComplete="email"
        required
        placeholder="name@company.com"
        value={values.assignee}
        error={fieldErrors.assignee}
        hint={t`Their e-mail address. They will see the task on their board.`}
        onChange={(event) => {
          set('assignee', event.target.value);
        }}
      />
      {boards.length > 1 ? (
        <SelectField
          label={t`Board`}
          name="boardId"
          value={boardId}
          error={fieldErrors.boardId}
          hint={t`Everyone on the board sees the task.`}
          onChange={(event) => {
            set('boardId', event.target.value);
          }}
        >
          {boards.map((board) => (
            <option key={board._id} value={board._id}>
              {displayName(board.name)}
            </option>
          ))}
        </SelectField>
      ) : null}
      {boardId ? (
        <NewTaskLabelsField
          boardId={boardId}
          value={labels}
          onChange={(next) => {
            setPicked({ boardId, labels: next });
            setSuccess(null);
          }}
        />
      ) : null}
      <StartField
        ref={startRef}
        value={values.startAt}
        error={fieldErrors.startAt}
        hint={t`When the work starts, in your time zone; not after the deadline.`}
        onChange={(value) => {
          set('startAt', value);
        }}
      />
      <div className="create-task__row">
        <TextField
          ref={deadlineRef}
          label={t`Deadline`}
          optional
          type="datetime-local"
          name="deadline"
          min={toDateTimeLocal(now)}
          value={values.deadline}
          error={fieldErrors.deadline}
          hint={t`In your time zone.`}
          onChange={(event) => {
            set('deadline', event.target.value);
          }}
        />
        <PrioritySelect
          name="priority"
          value={values.priority}
          onChange={(priority) => {
            set('priority', priority);
          }}
        />
      </div>
      <RepeatField
        value={values.repeat}
        hasDeadline={values.deadline !== ''}
        error={fieldErrors.repeat}
        onChange={(repeat) => {
          set('repeat', repeat);
        }}
      />
      <div className="create-task__actions">
        <Button type="submit" variant="primary" size="lg" block busy={create.isPending && !create.isPaused}>
          {create.isPending && !create.isPaused ? i18n._(CLIENT_MESSAGES.creatingTask) : <Trans>Create Task</Trans>}
        </Button>
      </div>
    </form>
  );
}

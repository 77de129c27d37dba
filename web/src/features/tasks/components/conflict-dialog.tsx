import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { CONFLICT_MESSAGES } from '#shared/conflict-messages.ts';
import type { Column } from '#shared/schemas/columns.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { sortLabels } from '#web/features/labels/api/get-labels.ts';
import { labelKeys } from '#web/features/labels/api/query-keys.ts';
import { useNotices } from '#web/components/notices.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useDeleteTask } from '../api/delete-task.ts';
import { useCurrentConflict, useLiveBoard, type Conflict } from '../api/live-board-context.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { useMoveTask } from '../api/move-task.ts';
import { useBoardScope } from '../api/board-scope.ts';
import { formatDeadlineFull } from '../utils/deadline.ts';
import { PRIORITY_LABELS } from './priority.tsx';
import './conflict-dialog.css';

/** The fields a person can change, in the order the dialog lists them. */
const FIELDS = ['taskTitle', 'workTitle', 'description', 'assignee', 'priority', 'status', 'startAt', 'deadline'] as const;

type Field = (typeof FIELDS)[number] | 'labels' | 'column';

/** Each field's name, as the dialog heads its row. */
const FIELD_NAMES: Record<Field, MessageDescriptor> = {
  column: msg`Column`,
  taskTitle: msg`Task title`,
  workTitle: msg`Work title`,
  description: msg`Description`,
  assignee: msg`Assignee`,
  priority: msg`Priority`,
  status: msg`Status`,
  startAt: msg({ message: 'Start', comment: 'When the work on a task starts' }),
  deadline: msg`Deadline`,
  labels: msg`Labels`,
};

/** A set of labels as one value: the names in the order tasks list them, or null for none. */
const namesOf = (labels: readonly Label[]): string | null => (labels.length > 0 ? sortLabels(labels).map((label) => label.name).join(', ') : null);

function valueOf(task: Task, field: Exclude<Field, 'labels' | 'column'>): string | null {
  const value = task[field];
  return value === '' ? null : value;
}

/** What `mine` sets `field` to, as the server would store it (`undefined`: not touched). */
function mineOf(mine: UpdateTaskBody, field: Exclude<Field, 'labels' | 'column'>): string | null | undefined {
  const value = mine[field];
  if (value === undefined) return undefined;
  return value === '' ? null : value;
}

/** A value as the dialog shows it, in the language in use (called while it is drawn). */
function shown(field: Field, value: string | null): string {
  if (value === null) {
    switch (field) {
      case 'deadline':
        return i18n._(msg`No deadline`);
      case 'startAt':
        return i18n._(msg`No start`);
      case 'labels':
        return i18n._(msg({ message: 'None', comment: 'A task without labels' }));
      case 'column':
        return i18n._(msg`A column no longer there`);
      default:
        return i18n._(msg({ message: 'Empty', comment: 'A task’s field without a value' }));
    }
  }
  if (field === 'priority') return PRIORITY_LABELS[value as Task['priority']];
  if (field === 'status') return value === 'done' ? i18n._(msg({ message: 'Completed', context: 'task status' })) : i18n._(msg({ message: 'To do', context: 'task status' }));
  if (field === 'column') return displayName(value);
  if (field === 'deadline' || field === 'startAt') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : formatDeadlineFull(date);
  }
  return value;
}

interface Row {
  field: Field;
  /** The field's name as shown. */
  label: string;
  theirs: string | null;
  /** What it was before they changed it (`undefined`: they did not). */
  was: string | null | undefined;
  /** What this person tried (`undefined`: they did not touch it). */
  mine: string | null | undefined;
}

/**
 * Every field the other person changed, and every field this person tried to change. Labels
 * are sent as ids: `known` are the board's labels, to name them (with those of both copies);
 * `columns` the board's columns, to name where the card is and where a move put it. Called
 * while the dialog is drawn: the rows are named in the language in use.
 */
export function conflictRows(conflict: Conflict, known: readonly Label[] = [], columns: readonly Pick<Column, '_id' | 'name'>[] = []): Row[] {
  const rows: Row[] = [];
  const columnName = (id: string) => columns.find((column) => column._id === id)?.name ?? null;
  const [baseColumn, theirColumn] = [columnName(conflict.base.columnId), columnName(conflict.theirs.columnId)];
  const myColumn = conflict.move ? columnName(conflict.move.columnId) : undefined;
  const movedByMe = conflict.move !== undefined && conflict.move.columnId !== conflict.base.columnId;
  if (conflict.base.columnId !== conflict.theirs.columnId || movedByMe) {
    rows.push({ field: 'column', label: i18n._(FIELD_NAMES.column), theirs: theirColumn, was: conflict.base.columnId !== conflict.theirs.columnId ? baseColumn : undefined, mine: movedByMe ? myColumn : undefined });
  }
  for (const field of FIELDS) {
    const label = i18n._(FIELD_NAMES[field]);
    const base = valueOf(conflict.base, field);
    const theirs = valueOf(conflict.theirs, field);
    const mine = mineOf(conflict.mine, field);
    const theyChanged = base !== theirs;
    const iChanged = mine !== undefined && mine !== base;
    if (theyChanged || iChanged) rows.push({ field, label, theirs, was: theyChanged ? base : undefined, mine: iChanged ? mine : undefined });
  }
  const base = namesOf(conflict.base.labels);
  const theirs = namesOf(conflict.theirs.labels);
  const ids = conflict.mine.labelIds;
  const named = [...known, ...conflict.base.labels, ...conflict.theirs.labels];
  const mine = ids === undefined ? undefined : namesOf(ids.flatMap((id) => named.find((l) => l._id === id) ?? []));
  const iChanged = mine !== undefined && mine !== base;
  if (base !== theirs || iChanged) rows.push({ field: 'labels', label: i18n._(FIELD_NAMES.labels), theirs, was: base !== theirs ? base : undefined, mine: iChanged ? mine : undefined });
  return rows;
}

/**
 * The answer to a 409: the other person's version beside what this person tried, field by
 * field, and the choice between "Apply mine on top" (sent again with the server's current
 * version) and "Keep theirs" (the board already shows their version). Esc and the close
 * button keep theirs too: nothing is sent that the person did not choose.
 */
export function ConflictDialog() {
  const conflict = useCurrentConflict();
  const live = useLiveBoard();
  const update = useUpdateTask();
  const move = useMoveTask();
  const { boards } = useBoardScope();
  const remove = useDeleteTask();
  const { notify } = useNotices();
  const queryClient = useQueryClient();
  const { t } = useLingui();

  const onFailure = (error: unknown) => {
    if (!isUnauthorized(error) && !(isApiError(error) && error.status === 409)) notify('error', errorText(error));
  };

  if (!conflict) return null;
  const keepTheirs = () => {
    live.conflicts.resolve(conflict);
  };
  const applyMine = () => {
    live.conflicts.resolve(conflict);
    if (conflict.kind === 'delete') remove.mutate(conflict.theirs, { onError: onFailure });
    else if (conflict.move) move.mutate({ task: conflict.theirs, ...conflict.move });
    else update.mutate({ task: conflict.theirs, changes: conflict.mine }, { onError: onFailure });
  };
  const editor = live.editors.get(conflict.base._id);
  // The board's labels as this tab knows them (the picker read them), to name the ones sent.
  const columns = boards?.find((board) => board._id === conflict.base.boardId)?.columns;
  const keepLabel = CONFLICT_MESSAGES.keepTheirs;
  const rows = conflictRows(conflict, queryClient.getQueryData<Label[]>(labelKeys.board(conflict.base.boardId)) ?? [], columns);

  return (
    <Dialog
      key={`${conflict.base._id}:${conflict.theirs.updatedAt}`}
      open
      onClose={keepTheirs}
      variant="center"
      role="alertdialog"
      title={CONFLICT_MESSAGES.title}
      description={
        <>
          “{conflict.theirs.taskTitle}”: {editor ? i18n._(CONFLICT_MESSAGES.changedBy(editor.fullName)) : CONFLICT_MESSAGES.changedBySomeone}
          {conflict.kind === 'delete' ? ` ${CONFLICT_MESSAGES.deleteNote}` : null}
        </>
      }
      fallbackFocus={() => document.getElementById('main')}
      closeLabel={t`Close (${keepLabel})`}
      footer={
        <>
          <Button onClick={keepTheirs}>{CONFLICT_MESSAGES.keepTheirs}</Button>
          <Button variant="primary" onClick={applyMine}>
            {CONFLICT_MESSAGES.applyMine}
          </Button>
        </>
      }
    >
      <ul className="conflict" aria-label={t`Changes`}>
        {rows.map((row) => {
          const was = row.was === undefined ? undefined : shown(row.field, row.was);
          return (
            <li key={row.field} className="conflict__row">
              <h3 className="conflict__field">{row.label}</h3>
              <dl className="conflict__values">
                <div className="conflict__value conflict__value--theirs">
                  <dt>
                    <Trans comment="The other person's version of a task">Theirs</Trans>
                  </dt>
                  <dd>
                    {shown(row.field, row.theirs)}
                    {was !== undefined ? (
                      <span className="conflict__was">
                        {' '}
                        <Trans comment="After their value: the value before they changed it">(was {was})</Trans>
                      </span>
                    ) : null}
                  </dd>
                </div>
                <div className="conflict__value conflict__value--mine">
                  <dt>
                    <Trans comment="This person's version of a task">Yours</Trans>
                  </dt>
                  <dd>
                    {row.mine !== undefined ? (
                      shown(row.field, row.mine)
                    ) : (
                      <span className="conflict__untouched">
                        <Trans>Not changed by you</Trans>
                      </span>
                    )}
                  </dd>
                </div>
              </dl>
            </li>
          );
        })}
        {conflict.kind === 'delete' ? (
          <li className="conflict__row">
            <h3 className="conflict__field">
              <Trans>Task</Trans>
            </h3>
            <dl className="conflict__values">
              <div className="conflict__value conflict__value--theirs">
                <dt>
                  <Trans comment="The other person's version of a task">Theirs</Trans>
                </dt>
                <dd>
                  <Trans>Kept, with the changes above</Trans>
                </dd>
              </div>
              <div className="conflict__value conflict__value--mine">
                <dt>
                  <Trans comment="This person's version of a task">Yours</Trans>
                </dt>
                <dd>
                  <Trans comment="What this person tried: the task deleted">Deleted</Trans>
                </dd>
              </div>
            </dl>
          </li>
        ) : null}
      </ul>
    </Dialog>
  );
}

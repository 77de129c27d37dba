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
import { useDeleteTask } from '../api/delete-task.ts';
import { useCurrentConflict, useLiveBoard, type Conflict } from '../api/live-board-context.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { useMoveTask } from '../api/move-task.ts';
import { useBoardScope } from '../api/board-scope.ts';
import { formatDeadlineFull } from '../utils/deadline.ts';
import { PRIORITY_LABELS } from './priority.tsx';
import './conflict-dialog.css';
import { i18n } from '@lingui/core';

/** The fields a person can change, in the order the dialog lists them. */
const FIELDS = [
  ['taskTitle', 'Task title'],
  ['workTitle', 'Work title'],
  ['description', 'Description'],
  ['assignee', 'Assignee'],
  ['priority', 'Priority'],
  ['status', 'Status'],
  ['startAt', 'Start'],
  ['deadline', 'Deadline'],
] as const;

type Field = (typeof FIELDS)[number][0] | 'labels' | 'column';

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

function shown(field: Field, value: string | null): string {
  if (value === null) return field === 'deadline' ? 'No deadline' : field === 'startAt' ? 'No start' : field === 'labels' ? 'None' : field === 'column' ? 'A column no longer there' : 'Empty';
  if (field === 'priority') return PRIORITY_LABELS[value as Task['priority']];
  if (field === 'status') return value === 'done' ? 'Completed' : 'To do';
  if (field === 'deadline' || field === 'startAt') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : formatDeadlineFull(date);
  }
  return value;
}

interface Row {
  field: Field;
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
 * `columns` the board's columns, to name where the card is and where a move put it.
 */
export function conflictRows(conflict: Conflict, known: readonly Label[] = [], columns: readonly Pick<Column, '_id' | 'name'>[] = []): Row[] {
  const rows: Row[] = [];
  const columnName = (id: string) => columns.find((column) => column._id === id)?.name ?? null;
  const [baseColumn, theirColumn] = [columnName(conflict.base.columnId), columnName(conflict.theirs.columnId)];
  const myColumn = conflict.move ? columnName(conflict.move.columnId) : undefined;
  const movedByMe = conflict.move !== undefined && conflict.move.columnId !== conflict.base.columnId;
  if (conflict.base.columnId !== conflict.theirs.columnId || movedByMe) {
    rows.push({ field: 'column', label: 'Column', theirs: theirColumn, was: conflict.base.columnId !== conflict.theirs.columnId ? baseColumn : undefined, mine: movedByMe ? myColumn : undefined });
  }
  for (const [field, label] of FIELDS) {
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
  if (base !== theirs || iChanged) rows.push({ field: 'labels', label: 'Labels', theirs, was: base !== theirs ? base : undefined, mine: iChanged ? mine : undefined });
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
      closeLabel={`Close (${CONFLICT_MESSAGES.keepTheirs})`}
      footer={
        <>
          <Button onClick={keepTheirs}>{CONFLICT_MESSAGES.keepTheirs}</Button>
          <Button variant="primary" onClick={applyMine}>
            {CONFLICT_MESSAGES.applyMine}
          </Button>
        </>
      }
    >
      <ul className="conflict" aria-label="Changes">
        {rows.map((row) => (
          <li key={row.field} className="conflict__row">
            <h3 className="conflict__field">{row.label}</h3>
            <dl className="conflict__values">
              <div className="conflict__value conflict__value--theirs">
                <dt>Theirs</dt>
                <dd>
                  {shown(row.field, row.theirs)}
                  {row.was !== undefined ? <span className="conflict__was"> (was {shown(row.field, row.was)})</span> : null}
                </dd>
              </div>
              <div className="conflict__value conflict__value--mine">
                <dt>Yours</dt>
                <dd>{row.mine !== undefined ? shown(row.field, row.mine) : <span className="conflict__untouched">Not changed by you</span>}</dd>
              </div>
            </dl>
          </li>
        ))}
        {conflict.kind === 'delete' ? (
          <li className="conflict__row">
            <h3 className="conflict__field">Task</h3>
            <dl className="conflict__values">
              <div className="conflict__value conflict__value--theirs">
                <dt>Theirs</dt>
                <dd>Kept, with the changes above</dd>
              </div>
              <div className="conflict__value conflict__value--mine">
                <dt>Yours</dt>
                <dd>Deleted</dd>
              </div>
            </dl>
          </li>
        ) : null}
      </ul>
    </Dialog>
  );
}

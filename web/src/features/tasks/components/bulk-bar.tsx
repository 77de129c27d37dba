import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, type SubmitEvent } from 'react';
import { PRIORITY_ORDER, type Priority } from '#shared/constants.ts';
import type { Column } from '#shared/schemas/columns.ts';
import type { BulkChange } from '#shared/schemas/tasks.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { useLabels } from '#web/features/labels/api/get-labels.ts';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useOnline } from '#web/lib/use-online.ts';
import { displayName } from '#web/lib/product-names.ts';
import type { BoardFilter } from '../api/board-filter.ts';
import { changedText, notUndoneText, useBulkChange, useUndoBulkChange, type BulkRequest } from '../api/bulk-change.ts';
import { taskSelection, useTaskSelection } from '../api/task-selection.ts';
import { dateTimeLocalToIso } from '../utils/deadline.ts';
import { PRIORITY_LABELS } from './priority.tsx';
import './bulk-bar.css';

/** How long "N tasks changed — Undo" stays (while the pointer or focus is not on it). */
export const UNDO_MS = 10_000;

interface Done {
  text: string;
  undo: BulkRequest[];
}

export interface BulkBarProps {
  /** The board on screen; "" on "All my tasks". */
  boardId: string;
  /** The board's columns; undefined on "All my tasks" (Complete and Reopen instead). */
  columns: readonly Column[] | undefined;
  /** The page's filter: a selection is of what it shows, so a new filter clears it. */
  filter: BoardFilter;
}

/**
 * The bar of changes to the selected tasks (table rows, or cards picked with Shift+click):
 * "N selected", then move, assign, priority, deadline, labels, delete and clear. Each action is
 * one bulk change (all or nothing on the server); afterwards "N tasks changed — Undo" stays for
 * ten seconds. A refusal is the server's message (it names the task) and changes nothing. Undo
 * sends the versions the change's answer gave: a task someone changed since keeps their change,
 * and the bar says so ("Not undone: …").
 */
export function BulkBar({ boardId, columns, filter }: BulkBarProps) {
  const selection = useTaskSelection();
  const online = useOnline();
  const send = useBulkChange();
  const sendUndo = useUndoBulkChange();
  const labels = useLabels(boardId === '' ? null : boardId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  /** How many the delete being confirmed takes (fixed when asked: the selection clears on success). */
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);
  const [assignee, setAssignee] = useState('');
  const [deadline, setDeadline] = useState('');
  const [paused, setPaused] = useState(false);
  const { t } = useLingui();
  const ids = [...selection.ids];
  const selected = ids.length;

  // A selection is of the board and filter on screen: another one starts with none.
  useEffect(
    () => () => {
      taskSelection.clear();
    },
    [boardId, filter],
  );

  useEffect(() => {
    if (done === null || paused) return;
    const timer = window.setTimeout(() => {
      setDone(null);
    }, UNDO_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [done, paused]);

  const run = async (change: BulkChange): Promise<void> => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const result = await send(ids, change);
      taskSelection.clear();
      setAssignee('');
      setDeadline('');
      const changed = result.tasks.length;
      const deleted = result.deleted;
      const warnings = result.warnings.join(' ');
      setDone(
        'delete' in change
          ? { text: plural(deleted, { one: '# task deleted', other: '# tasks deleted' }), undo: [] }
          : {
              // A column left over its WIP limit is said after the count (the change is made all the same).
              text: warnings === '' ? changedText(changed) : t`${plural(changed, { one: '# task changed', other: '# tasks changed' })}. ${warnings}`,
              undo: result.undo,
            },
      );
    } finally {
      setBusy(false);
    }
  };
  const act = (change: BulkChange) => {
    run(change).catch((failure: unknown) => {
      if (!isUnauthorized(failure)) setError(errorText(failure));
    });
  };
  const undo = (plan: BulkRequest[]) => {
    setDone(null);
    setError(null);
    setBusy(true);
    sendUndo(plan)
      .then(({ putBack, changedSince }) => {
        // A task someone changed since the change keeps their change: said where refusals are.
        if (changedSince === undefined) setDone({ text: plural(putBack, { one: '# task put back', other: '# tasks put back' }), undo: [] });
        else setError(notUndoneText(changedSince, putBack));
      })
      .catch((failure: unknown) => {
        if (!isUnauthorized(failure)) setError(errorText(failure));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  const disabled = busy || !online;
  const deleting = confirmDelete ?? 0;
  const boardLabels = labels.data ?? [];

  const notice =
    done !== null ? (
      <div
        className="bulk-bar__done"
        onPointerEnter={() => {
          setPaused(true);
        }}
        onPointerLeave={() => {
          setPaused(false);
        }}
        onFocus={() => {
          setPaused(true);
        }}
        onBlur={() => {
          setPaused(false);
        }}
      >
        <p role="status">
          {done.text}
          {done.undo.length > 0 ? (
            <>
              {' — '}
              <Button
                variant="ghost"
                size="sm"
                disabled={!online}
                onClick={() => {
                  undo(done.undo);
                }}
              >
                <Trans>Undo</Trans>
              </Button>
            </>
          ) : null}
        </p>
      </div>
    ) : null;

  return (
    <div className="bulk-bar__anchor">
      {error !== null ? (
        <Alert tone="error" className="bulk-bar__error">
          {error}
        </Alert>
      ) : null}
      {selected === 0 ? (
        notice
      ) : (
        <section className="bulk-bar" aria-label={t`Change the selected tasks`}>
          <p className="bulk-bar__count" role="status">
            <Plural value={selected} one="# selected" other="# selected" />
          </p>
          {online ? null : (
            <p className="bulk-bar__offline">
              <Trans>Changes to many tasks need a connection</Trans>
            </p>
          )}
          <div className="bulk-bar__actions">
            {columns ? (
              <ChoiceSelect
                label={t`Move to column`}
                disabled={disabled}
                options={columns.map((column) => ({ value: column._id, text: displayName(column.name) }))}
                onChoose={(columnId) => {
                  act({ columnId });
                }}
              />
            ) : (
              <>
                <Button
                  size="sm"
                  disabled={disabled}
                  onClick={() => {
                    act({ status: 'done' });
                  }}
                >
                  <Trans comment="Completes the selected tasks">Complete</Trans>
                </Button>
                <Button
                  size="sm"
                  disabled={disabled}
                  onClick={() => {
                    act({ status: 'todo' });
                  }}
                >
                  <Trans comment="Reopens the selected tasks">Reopen</Trans>
                </Button>
              </>
            )}
            <ChoiceSelect
              label={t`Priority`}
              disabled={disabled}
              options={PRIORITY_ORDER.map((priority) => ({ value: priority, text: PRIORITY_LABELS[priority] }))}
              onChoose={(priority) => {
                act({ priority: priority as Priority });
              }}
            />
            <form
              className="bulk-bar__field"
              onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
                event.preventDefault();
                if (assignee.trim() !== '') act({ assignee: assignee.trim() });
              }}
            >
              <input
                className="input bulk-bar__input"
                type="email"
                aria-label={t`Assign to (e-mail)`}
                placeholder={t`Assign to…`}
                value={assignee}
                disabled={disabled}
                onChange={(event) => {
                  setAssignee(event.target.value);
                }}
              />
              <Button size="sm" type="submit" disabled={disabled || assignee.trim() === ''}>
                <Trans comment="Assigns the selected tasks to the address typed">Assign</Trans>
              </Button>
            </form>
            <form
              className="bulk-bar__field"
              onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
                event.preventDefault();
                const iso = deadline === '' ? null : dateTimeLocalToIso(deadline);
                if (deadline === '' || iso !== null) act({ deadline: iso });
              }}
            >
              <input
                className="input bulk-bar__input"
                type="datetime-local"
                aria-label={t`Deadline`}
                value={deadline}
                disabled={disabled}
                onChange={(event) => {
                  setDeadline(event.target.value);
                }}
              />
              <Button size="sm" type="submit" disabled={disabled}>
                {deadline === '' ? <Trans>Clear deadline</Trans> : <Trans>Set deadline</Trans>}
              </Button>
            </form>
            {boardLabels.length > 0 ? (
              <>
                <ChoiceSelect
                  label={t`Add label`}
                  disabled={disabled}
                  options={boardLabels.map((label) => ({ value: label._id, text: label.name }))}
                  onChoose={(id) => {
                    act({ addLabelIds: [id] });
                  }}
                />
                <ChoiceSelect
                  label={t`Remove label`}
                  disabled={disabled}
                  options={boardLabels.map((label) => ({ value: label._id, text: label.name }))}
                  onChoose={(id) => {
                    act({ removeLabelIds: [id] });
                  }}
                />
              </>
            ) : null}
            <Button
              size="sm"
              variant="danger"
              disabled={disabled}
              onClick={() => {
                setConfirmDelete(selected);
              }}
            >
              <Trans comment="Deletes the selected tasks">Delete</Trans>
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                taskSelection.clear();
                setError(null);
              }}
            >
              <Trans>Clear selection</Trans>
            </Button>
          </div>
        </section>
      )}
      <ConfirmDialog
        open={confirmDelete !== null}
        title={plural(deleting, { one: 'Delete # task?', other: 'Delete # tasks?' })}
        body={t`They are deleted for everyone who sees them, with their comments and checklists. This cannot be undone.`}
        confirmLabel={plural(deleting, { one: 'Delete # task', other: 'Delete # tasks' })}
        busyLabel={t`Deleting…`}
        onConfirm={() => run({ delete: true })}
        onClose={() => {
          setConfirmDelete(null);
        }}
      />
    </div>
  );
}

/** A select whose choice is the action: choosing sends it, and the select goes back to its prompt. */
function ChoiceSelect({ label, options, disabled, onChoose }: { label: string; options: readonly { value: string; text: string }[]; disabled: boolean; onChoose: (value: string) => void }) {
  const { t } = useLingui();
  return (
    <select
      className="input select bulk-bar__select"
      aria-label={label}
      value=""
      disabled={disabled}
      onChange={(event) => {
        if (event.target.value !== '') onChoose(event.target.value);
      }}
    >
      <option value="">{t({ message: `${label}…`, comment: 'The first choice of a select whose choice is the action: its name, as a prompt' })}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.text}
        </option>
      ))}
    </select>
  );
}

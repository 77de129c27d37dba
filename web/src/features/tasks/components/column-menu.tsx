import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type SubmitEvent } from 'react';
import { COLUMN_POLICY } from '#shared/column-messages.ts';
import type { TaskStatus } from '#shared/constants.ts';
import type { Column } from '#shared/schemas/columns.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button, buttonClass } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { SelectField, TextField } from '#web/components/field.tsx';
import { isRtl } from '#web/lib/direction.ts';
import { errorText } from '#web/lib/error-text.ts';
import { displayName } from '#web/lib/product-names.ts';
import { usePopover } from '#web/lib/use-popover.ts';
import type { ColumnChange } from '../api/change-columns.ts';

/** The words of a category, as the column form says them. */
const CATEGORY_LABELS: Record<TaskStatus, MessageDescriptor> = {
  todo: msg({ message: 'To do', comment: 'A column’s category: its tasks are still to do' }),
  done: msg({ message: 'Done', context: 'column category', comment: 'A column’s category: its tasks are completed (not the “Done” of a button that closes a panel)' }),
};

/** Sends one change of the board's columns; rejects with the server's refusal. */
export type ChangeColumns = (change: ColumnChange) => Promise<unknown>;

interface ColumnFormValues {
  name: string;
  wipLimit: string;
  category: TaskStatus;
}

/** The WIP limit as sent: empty is none; the server checks the range and says so. */
const wipOf = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));

/**
 * The form of a column's name, WIP limit and category: "Add column" and "Edit column" alike.
 * A refusal is shown above the fields, which keep what was typed.
 */
function ColumnForm({ initial, submitLabel, onSubmit, onDone }: { initial: ColumnFormValues; submitLabel: string; onSubmit: (values: ColumnFormValues) => Promise<unknown>; onDone: () => void }) {
  const [values, setValues] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { t, i18n } = useLingui();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    onSubmit(values).then(
      () => {
        setBusy(false);
        onDone();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(errorText(failure));
      },
    );
  };
  return (
    <form className="column-form" onSubmit={submit} noValidate>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField
        label={t({ message: 'Name', comment: 'A column’s name' })}
        value={values.name}
        maxLength={COLUMN_POLICY.nameMax}
        required
        onChange={(event) => {
          setValues({ ...values, name: event.target.value });
        }}
      />
      <TextField
        label={t({ message: 'WIP limit', comment: 'Work in progress: the most tasks a column should hold' })}
        hint={t`Empty: no limit. More tasks than this show as a warning, never a refusal.`}
        inputMode="numeric"
        value={values.wipLimit}
        onChange={(event) => {
          setValues({ ...values, wipLimit: event.target.value });
        }}
      />
      <SelectField
        label={t`Category`}
        hint={t({ message: 'Tasks in a Done column are completed. It changes only while the column is empty.', comment: '“Done” is the category as the Category select names it' })}
        value={values.category}
        onChange={(event) => {
          setValues({ ...values, category: event.target.value as TaskStatus });
        }}
      >
        <option value="todo">{i18n._(CATEGORY_LABELS.todo)}</option>
        <option value="done">{i18n._(CATEGORY_LABELS.done)}</option>
      </SelectField>
      <Button type="submit" variant="primary" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}

/** The "Add column" dialog: the new column goes right after `afterId` (undefined: first). */
function AddColumnDialog({ open, onClose, afterId, onChange }: { open: boolean; onClose: () => void; afterId: string | undefined; onChange: ChangeColumns }) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onClose={onClose} title={t`Add column`} variant="center" closeLabel={t`Close`}>
      <ColumnForm
        initial={{ name: '', wipLimit: '', category: 'todo' }}
        submitLabel={t`Add column`}
        onSubmit={({ name, wipLimit, category }) => onChange({ kind: 'create', body: { name, category, wipLimit: wipOf(wipLimit), afterId: afterId ?? null } })}
        onDone={onClose}
      />
    </Dialog>
  );
}

/** "Add column" at the end of the board: a new To do column goes last. */
export function AddColumnButton({ lastId, onChange }: { lastId: string | undefined; onChange: ChangeColumns }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="add-column">
      <Button
        variant="secondary"
        onClick={() => {
          setOpen(true);
        }}
        aria-haspopup="dialog"
      >
        <Trans>Add column</Trans>
      </Button>
      <AddColumnDialog
        open={open}
        onClose={() => {
          setOpen(false);
        }}
        afterId={lastId}
        onChange={onChange}
      />
    </div>
  );
}

interface ColumnMenuProps {
  column: Column;
  /** The board's columns, in order (left to right, or right to left in RTL). */
  columns: readonly Column[];
  /** How many tasks it holds (the server's count), if known. */
  count: number | undefined;
  onChange: ChangeColumns;
  /** Offers "Add column…" (a new column right after this one): where the board has no room for the button at its end (a phone). */
  canAdd?: boolean;
}

/**
 * A column's menu, for who may change the board's columns: edit (name, WIP limit, category),
 * move left or right, add a column after it (on a phone), delete. Deleting a column that holds tasks asks where they go, offering
 * only the columns of the same category; an empty one is deleted after a confirm. A refusal
 * is shown in the dialog (or, for a move, under the menu) in the server's words.
 */
export function ColumnMenu({ column, columns, count, onChange, canAdd = false }: ColumnMenuProps) {
  const { close, buttonProps, panelProps } = usePopover();
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const index = columns.findIndex((c) => c._id === column._id);
  const targets = columns.filter((c) => c._id !== column._id && c.category === column.category);
  const [moveTo, setMoveTo] = useState('');
  const empty = count === 0;
  const { t } = useLingui();
  const name = displayName(column.name);

  const run = (change: ColumnChange) => {
    close(true);
    setError(null);
    onChange(change).catch((failure: unknown) => {
      setError(errorText(failure));
    });
  };
  // The column it will follow: moving back, the one before its previous neighbour (none: first).
  const moveBack = () => {
    run({ kind: 'update', columnId: column._id, body: { afterId: index >= 2 ? (columns[index - 2]?._id ?? null) : null } });
  };
  const moveOn = () => {
    const next = columns[index + 1];
    if (next) run({ kind: 'update', columnId: column._id, body: { afterId: next._id } });
  };
  const first = index <= 0;
  const last = index === -1 || index >= columns.length - 1;
  // Left and right as on screen: right to left, the next column is the one on the left.
  const rtl = isRtl();
  const moveLeft = rtl ? moveOn : moveBack;
  const moveRight = rtl ? moveBack : moveOn;

  return (
    <div className="column-menu">
      <button type="button" className={buttonClass('ghost', 'sm', false, 'column-menu__button')} aria-label={t`Column options: ${name}`} {...buttonProps}>
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <circle cx="3.5" cy="8" r="1.4" fill="currentColor" />
          <circle cx="8" cy="8" r="1.4" fill="currentColor" />
          <circle cx="12.5" cy="8" r="1.4" fill="currentColor" />
        </svg>
      </button>
      <div className="column-menu__panel" role="group" aria-labelledby={titleId} {...panelProps}>
        <p className="visually-hidden" id={titleId}>
          <Trans>Column options: {name}</Trans>
        </p>
        <button
          type="button"
          className="column-menu__item"
          onClick={() => {
            close(false);
            setEditing(true);
          }}
        >
          <Trans>Edit column…</Trans>
        </button>
        <button type="button" className="column-menu__item" disabled={rtl ? last : first} onClick={moveLeft}>
          <Trans>Move left</Trans>
        </button>
        <button type="button" className="column-menu__item" disabled={rtl ? first : last} onClick={moveRight}>
          <Trans>Move right</Trans>
        </button>
        {canAdd ? (
          <button
            type="button"
            className="column-menu__item"
            onClick={() => {
              close(false);
              setAdding(true);
            }}
          >
            <Trans comment="Opens the form for a new column, placed right after this one">Add column…</Trans>
          </button>
        ) : null}
        <button
          type="button"
          className="column-menu__item column-menu__item--danger"
          onClick={() => {
            close(false);
            setMoveTo(targets[0]?._id ?? '');
            setDeleting(true);
          }}
        >
          <Trans>Delete column…</Trans>
        </button>
      </div>
      {error ? (
        <div className="column-menu__error">
          <Alert tone="error">{error}</Alert>
        </div>
      ) : null}
      <Dialog
        open={editing}
        onClose={() => {
          setEditing(false);
        }}
        title={t`Edit column “${name}”`}
        variant="center"
        closeLabel={t`Close`}
      >
        <ColumnForm
          initial={{ name: column.name, wipLimit: column.wipLimit === null ? '' : String(column.wipLimit), category: column.category }}
          submitLabel={t`Save column`}
          onSubmit={({ name, wipLimit, category }) =>
            onChange({
              kind: 'update',
              columnId: column._id,
              // Only what changed: a category sent unchanged would be refused for a column that holds tasks.
              body: { name, wipLimit: wipOf(wipLimit), ...(category === column.category ? {} : { category }) },
            })
          }
          onDone={() => {
            setEditing(false);
          }}
        />
      </Dialog>
      {canAdd ? (
        <AddColumnDialog
          open={adding}
          onClose={() => {
            setAdding(false);
          }}
          afterId={column._id}
          onChange={onChange}
        />
      ) : null}
      <ConfirmDialog
        open={deleting}
        onClose={() => {
          setDeleting(false);
        }}
        title={t`Delete column “${name}”?`}
        body={
          empty
            ? t`The column is empty. This cannot be undone.`
            : targets.length > 0
              ? t`Its tasks keep their order at the end of the column you choose. This cannot be undone.`
              : column.category === 'todo'
                ? t({ message: 'Its tasks have no other To do column to go to: add one first, or move its tasks out.', comment: '“To do” is the column’s category as the column form names it' })
                : t({ message: 'Its tasks have no other Done column to go to: add one first, or move its tasks out.', comment: '“Done” is the column’s category as the column form names it' })
        }
        confirmDisabled={!empty && targets.length === 0}
        confirmLabel={t`Delete column`}
        onConfirm={() => onChange({ kind: 'delete', columnId: column._id, moveTo: empty || moveTo === '' ? undefined : moveTo })}
      >
        {!empty && targets.length > 0 ? (
          <SelectField
            label={t`Move its tasks to`}
            value={moveTo}
            onChange={(event) => {
              setMoveTo(event.target.value);
            }}
          >
            {targets.map((target) => (
              <option key={target._id} value={target._id}>
                {displayName(target.name)}
              </option>
            ))}
          </SelectField>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';
import { LIMITS } from '#shared/constants.ts';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { CloseButton } from '#web/components/close-button.tsx';
import { LoadingLine } from '#web/components/spinner.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { isPendingItem, newPendingId, useChangeChecklist, useChecklistSync, type ChecklistChange } from '../api/change-checklist.ts';
import { useChecklist } from '../api/get-checklist.ts';
import { ChecklistRow } from './checklist-row.tsx';
import { useChecklistDrag } from './use-checklist-drag.ts';
import './task-checklist.css';

const TEXT_MAX = LIMITS.checklistTextMax;
const ITEMS_MAX = LIMITS.checklistItemsPerTask;

/** "2/5" on screen, "2 of 5 done" to a screen reader, and a bar. */
export function ChecklistProgress({ done, total }: { done: number; total: number }) {
  const doneShown = formatNumber(done);
  const totalShown = formatNumber(total);
  return (
    <div className="checklist__progress">
      <span aria-hidden="true">
        {doneShown}/{totalShown}
      </span>
      <span className="visually-hidden">
        <Plural value={done} one={`${doneShown} of ${totalShown} done`} other={`${doneShown} of ${totalShown} done`} />
      </span>
      <span className="checklist__bar" aria-hidden="true">
        <span className="checklist__bar-fill" style={{ width: `${total === 0 ? 0 : Math.round((done / total) * 100)}%` }} />
      </span>
    </div>
  );
}

function LoadFailure({ error }: { error: unknown }) {
  const reason = errorText(error);
  return <Trans>Couldn’t load the checklist. {reason}</Trans>;
}

function AddItemForm({ disabled, full, onAdd }: { disabled: boolean; full: boolean; onAdd: (text: string) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const { t } = useLingui();
  const most = formatNumber(ITEMS_MAX);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed === '') {
      setError(t`Type the item first.`);
      return;
    }
    setError(null);
    onAdd(trimmed);
    // The field keeps the focus for the next item.
    setText('');
  };
  return (
    <form className="checklist__add" onSubmit={onSubmit} noValidate aria-label={t`Add a checklist item`}>
      <label className="visually-hidden" htmlFor={inputId}>
        <Trans>New checklist item</Trans>
      </label>
      <input
        id={inputId}
        className="input checklist__add-input"
        placeholder={full ? t`${plural(ITEMS_MAX, { one: `At most ${most} item`, other: `At most ${most} items` })}` : t`Add an item`}
        autoComplete="off"
        maxLength={TEXT_MAX}
        disabled={disabled || full}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
      />
      <Button type="submit" size="sm" variant="secondary" disabled={disabled || full}>
        <Trans comment="Adds the item to the checklist">Add</Trans>
      </Button>
      {error ? (
        <p className="field__error checklist__add-error" id={`${inputId}-error`}>
          {error}
        </p>
      ) : null}
    </form>
  );
}

/**
 * The task's checklist on its page: tick, add, edit in place, delete (with undo) and reorder
 * (drag by the handle, or the arrow keys on it, or Alt+↑/↓ anywhere on the item). Every change
 * shows at once and is taken back with a message if the server refuses it.
 */
export function TaskChecklist({ task, canChange }: { task: Task; canChange: boolean }) {
  const checklist = useChecklist(task._id);
  useChecklistSync(task._id, task.version);
  const change = useChangeChecklist(task._id);
  const [announcement, setAnnouncement] = useState('');
  const [deleted, setDeleted] = useState<{ item: ChecklistItem; index: number } | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const focusAfter = useRef<{ id: string; control: 'handle' | 'edit' | 'check' } | 'add' | null>(null);
  const headingId = useId();
  const { t } = useLingui();
  const items = checklist.data ?? [];

  useEffect(() => {
    const target = focusAfter.current;
    if (!target) return;
    focusAfter.current = null;
    if (target === 'add') sectionRef.current?.querySelector<HTMLElement>('.checklist__add-input')?.focus();
    else listRef.current?.querySelector<HTMLElement>(`[data-item="${CSS.escape(target.id)}"] [data-control="${target.control}"]`)?.focus();
  });
  useEffect(() => {
    if (deleted) undoRef.current?.focus();
  }, [deleted]);

  const run = (next: ChecklistChange) => {
    change.mutate(next);
  };
  const move = (item: ChecklistItem, to: number, focus: 'handle' | null) => {
    const from = items.findIndex((shown) => shown._id === item._id);
    if (from < 0 || to < 0 || to >= items.length || to === from) return;
    if (focus) focusAfter.current = { id: item._id, control: focus };
    run({ kind: 'update', itemId: item._id, position: to });
    const { text } = item;
    const position = formatNumber(to + 1);
    const total = formatNumber(items.length);
    setAnnouncement(t`“${text}” moved to position ${position} of ${total}.`);
  };
  useChecklistDrag(listRef, items, (itemId, to) => {
    const item = items.find((shown) => shown._id === itemId);
    if (item) move(item, to, null);
  });

  const onRowKeyDown = (item: ChecklistItem, index: number) => (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    // Not while typing: there Alt+arrows belong to the text.
    if (event.target instanceof HTMLInputElement && event.target.type !== 'checkbox') return;
    event.preventDefault();
    move(item, event.key === 'ArrowUp' ? index - 1 : index + 1, 'handle');
  };

  const done = checklist.data ? items.filter((item) => item.done).length : task.checklist.done;
  const total = checklist.data ? items.length : task.checklist.total;
  const deletedText = deleted?.item.text ?? '';

  return (
    <section className="task-section checklist" aria-labelledby={headingId} ref={sectionRef}>
      <div className="checklist__head">
        <h3 id={headingId}>
          <Trans>Checklist</Trans>
        </h3>
        {total > 0 ? <ChecklistProgress done={done} total={total} /> : null}
      </div>
      {checklist.isPending ? (
        <LoadingLine>
          <Trans>Loading the checklist…</Trans>
        </LoadingLine>
      ) : checklist.isError ? (
        <RetryAlert onRetry={() => void checklist.refetch()}>
          <LoadFailure error={checklist.error} />
        </RetryAlert>
      ) : (
        <>
          {items.length === 0 && !canChange ? <p className="task-details__none">
              <Trans>No checklist.</Trans>
            </p> : null}
          {items.length > 0 ? (
            <ol className="checklist__items" ref={listRef}>
              {items.map((item, index) => (
                <ChecklistRow
                  key={item._id}
                  item={item}
                  index={index}
                  count={items.length}
                  canChange={canChange && !isPendingItem(item)}
                  editing={editingId === item._id}
                  onKeyDown={onRowKeyDown(item, index)}
                  onToggle={(checked) => {
                    run({ kind: 'update', itemId: item._id, done: checked });
                  }}
                  onMove={(to) => {
                    move(item, to, 'handle');
                  }}
                  onEdit={() => {
                    setEditingId(item._id);
                  }}
                  onEditEnd={(text) => {
                    setEditingId(null);
                    focusAfter.current = { id: item._id, control: 'edit' };
                    if (text !== null && text !== item.text) run({ kind: 'update', itemId: item._id, text });
                  }}
                  onDelete={() => {
                    const { text } = item;
                    setDeleted({ item, index });
                    setAnnouncement(t`Deleted “${text}”.`);
                    run({ kind: 'delete', itemId: item._id });
                  }}
                />
              ))}
            </ol>
          ) : null}
          {deleted ? (
            <div className="checklist__undo">
              <p>
                <Trans>Deleted “{deletedText}”.</Trans>
              </p>
              <Button
                ref={undoRef}
                size="sm"
                variant="ghost"
                onClick={() => {
                  run({ kind: 'restore', text: deleted.item.text, done: deleted.item.done, position: deleted.index, tempId: newPendingId() });
                  setAnnouncement(t`“${deletedText}” is back.`);
                  // The Undo button goes; the next thing to do is most likely another item.
                  focusAfter.current = 'add';
                  setDeleted(null);
                }}
              >
                <Trans>Undo</Trans>
              </Button>
              <CloseButton
                size={16}
                label={t`Dismiss`}
                onClick={() => {
                  setDeleted(null);
                }}
              />
            </div>
          ) : null}
          {canChange ? (
            <AddItemForm
              disabled={false}
              full={items.length >= ITEMS_MAX}
              onAdd={(text) => {
                setDeleted(null);
                run({ kind: 'add', text, tempId: newPendingId() });
                setAnnouncement(t`Added “${text}”.`);
              }}
            />
          ) : null}
        </>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}

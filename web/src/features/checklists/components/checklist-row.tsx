import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LIMITS } from '#shared/constants.ts';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';
import { Button } from '#web/components/button.tsx';
import { CloseButton } from '#web/components/close-button.tsx';
import { cx } from '#web/lib/cx.ts';
import { formatNumber } from '#web/lib/locale-format.ts';

function GripIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      {[4, 8, 12].flatMap((y) => [6, 10].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.2" fill="currentColor" />))}
    </svg>
  );
}

function EditIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" d="M9.5 3.5l3 3M3 13l.6-3.1L11 2.5l2.5 2.5L6.1 12.4z" />
    </svg>
  );
}

/** The item's text in an input: Enter saves, Esc gives up (and does not close the task). */
function ItemTextEditor({ item, onEnd }: { item: ChecklistItem; onEnd: (text: string | null) => void }) {
  const [text, setText] = useState(item.text);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const { t } = useLingui();
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);
  const save = () => {
    const trimmed = text.trim();
    if (trimmed === '') {
      setError(t`An item needs some text. Delete it instead?`);
      inputRef.current?.focus();
      return;
    }
    onEnd(trimmed);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      // The task page (dialog or page) closes on Esc; here it only ends the edit.
      event.stopPropagation();
      event.preventDefault();
      onEnd(null);
    }
  };
  return (
    <div className="checklist__editor">
      <label className="visually-hidden" htmlFor={id}>
        <Trans>Item text</Trans>
      </label>
      <input
        ref={inputRef}
        id={id}
        className="input checklist__edit-input"
        maxLength={LIMITS.checklistTextMax}
        autoComplete="off"
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      <Button size="sm" variant="primary" onClick={save}>
        <Trans>Save</Trans>
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => {
          onEnd(null);
        }}
      >
        <Trans>Cancel</Trans>
      </Button>
      {error ? (
        <p className="field__error checklist__edit-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface ChecklistRowProps {
  item: ChecklistItem;
  index: number;
  count: number;
  canChange: boolean;
  editing: boolean;
  onKeyDown: (event: KeyboardEvent<HTMLLIElement>) => void;
  onToggle: (checked: boolean) => void;
  onMove: (to: number) => void;
  onEdit: () => void;
  onEditEnd: (text: string | null) => void;
  onDelete: () => void;
}

/**
 * One item. The handle is a button: drag it, or press ↑/↓ on it to move the item (its
 * description says so); the item's place is announced by the list.
 */
export function ChecklistRow({ item, index, count, canChange, editing, onKeyDown, onToggle, onMove, onEdit, onEditEnd, onDelete }: ChecklistRowProps) {
  const checkId = useId();
  const hintId = useId();
  // The tick as clicked, until the list (whose listeners hear of changes a moment later) shows
  // any newer copy of the item: a controlled checkbox would otherwise flip back for that moment.
  const [clicked, setClicked] = useState<{ done: boolean; from: ChecklistItem } | null>(null);
  if (clicked && clicked.from !== item) setClicked(null);
  const checked = clicked?.from === item ? clicked.done : item.done;
  const { t } = useLingui();
  const { text } = item;
  const position = formatNumber(index + 1);
  const total = formatNumber(count);
  return (
    <li className={cx('checklist__item', item.done && 'checklist__item--done')} data-item={item._id} data-index={index} onKeyDown={canChange ? onKeyDown : undefined}>
      {canChange ? (
        <button
          type="button"
          className="checklist__handle"
          data-control="handle"
          aria-label={t`Move “${text}”, position ${position} of ${total}`}
          aria-describedby={hintId}
          onKeyDown={(event) => {
            if (event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
            event.preventDefault();
            onMove(event.key === 'ArrowUp' ? index - 1 : index + 1);
          }}
        >
          <GripIcon />
          <span className="visually-hidden" id={hintId}>
            <Trans>Drag, or press the up and down arrow keys to move the item.</Trans>
          </span>
        </button>
      ) : null}
      <input
        id={checkId}
        type="checkbox"
        className="checklist__check"
        data-control="check"
        checked={checked}
        disabled={!canChange}
        onChange={(event) => {
          setClicked({ done: event.target.checked, from: item });
          onToggle(event.target.checked);
        }}
      />
      {editing ? (
        <ItemTextEditor item={item} onEnd={onEditEnd} />
      ) : (
        <>
          <label className="checklist__text" htmlFor={checkId} dir="auto">
            {item.text}
          </label>
          {canChange ? (
            <span className="checklist__actions">
              <button type="button" className="checklist__icon-button" data-control="edit" aria-label={t`Edit “${text}”`} onClick={onEdit}>
                <EditIcon />
              </button>
              <CloseButton size={16} className="checklist__delete" label={t`Delete “${text}”`} onClick={onDelete} />
            </span>
          ) : null}
        </>
      )}
    </li>
  );
}

import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { LABEL_COLORS, LIMITS, type LabelColor } from '#shared/constants.ts';
import type { Label } from '#shared/schemas/labels.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { TextField } from '#web/components/field.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { useCreateLabel, useDeleteLabel, useUpdateLabel } from '../api/change-labels.ts';
import { useLabels } from '../api/get-labels.ts';
import { LabelChip } from './label-chips.tsx';
import { ColorChoice } from './label-picker.tsx';
import './labels.css';

/** A label's name and colour: the new-label form and a label's edit form. */
function LabelForm({
  initial,
  submitLabel,
  busyLabel,
  busy,
  error,
  onSubmit,
  onCancel,
  ariaLabel,
}: {
  initial: { name: string; color: LabelColor };
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (values: { name: string; color: LabelColor }) => void;
  onCancel?: () => void;
  ariaLabel: string;
}) {
  const [name, setName] = useState(initial.name);
  const [color, setColor] = useState<LabelColor>(initial.color);
  const [nameError, setNameError] = useState<string | null>(null);
  const colorName = useId();
  const { t } = useLingui();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < LIMITS.labelNameMin || trimmed.length > LIMITS.labelNameMax) {
      const most = LIMITS.labelNameMax;
      const min = formatNumber(LIMITS.labelNameMin);
      const max = formatNumber(most);
      setNameError(t`A label's name is ${min} to ${plural(most, { one: `${max} character`, other: `${max} characters` })}.`);
      return;
    }
    setNameError(null);
    onSubmit({ name: trimmed, color });
  };
  return (
    <form
      className="label-form"
      onSubmit={submit}
      noValidate
      aria-label={ariaLabel}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField
        label={t({ message: 'Name', comment: 'The label of a label’s name field' })}
        autoComplete="off"
        maxLength={LIMITS.labelNameMax}
        value={name}
        error={nameError}
        onChange={(event) => {
          setName(event.target.value);
        }}
      />
      <ColorChoice name={colorName} legend={t`Color`} value={color} onChange={setColor} />
      <div className="board-form__actions board-form__actions--start">
        <Button type="submit" size="sm" variant="primary" busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
        {onCancel ? (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function LabelRow({ boardId, label, canWrite }: { boardId: string; label: Label; canWrite: boolean }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateLabel(boardId);
  const remove = useDeleteLabel(boardId);
  const editRef = useRef<HTMLButtonElement>(null);
  const { t } = useLingui();
  const { name: nameText } = label;
  // Isolated in the sentence: the name reads in its own direction (decision 180).
  const name = <bdi>{nameText}</bdi>;

  if (editing) {
    return (
      <li className="label-row label-row--editing">
        <LabelForm
          ariaLabel={t`Edit label ${{ name: nameText }}`}
          initial={label}
          submitLabel={t`Save label`}
          busyLabel={t`Saving…`}
          busy={update.isPending}
          error={error}
          onCancel={() => {
            setEditing(false);
            requestAnimationFrame(() => editRef.current?.focus());
          }}
          onSubmit={(values) => {
            setError(null);
            update.mutate(
              { labelId: label._id, ...values },
              {
                onSuccess: () => {
                  setEditing(false);
                  requestAnimationFrame(() => editRef.current?.focus());
                },
                onError: (failure) => {
                  if (!isUnauthorized(failure)) setError(errorText(failure, { firstField: true }));
                },
              },
            );
          }}
        />
      </li>
    );
  }
  return (
    <li className="label-row">
      <LabelChip label={label} />
      {canWrite ? (
        <span className="label-row__actions">
          <Button
            ref={editRef}
            size="sm"
            variant="ghost"
            aria-label={t`Edit label ${{ name: nameText }}`}
            onClick={() => {
              setError(null);
              setEditing(true);
            }}
          >
            <Trans comment="Edits a label">Edit</Trans>
          </Button>
          <Button
            size="sm"
            variant="danger-ghost"
            aria-haspopup="dialog"
            aria-label={t`Delete label ${{ name: nameText }}`}
            onClick={() => {
              setConfirming(true);
            }}
          >
            <Trans comment="Deletes a label">Delete</Trans>
          </Button>
        </span>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title={t`Delete this label?`}
        body={<Trans>“{name}” comes off every task that has it, for everyone on the board. This cannot be undone.</Trans>}
        confirmLabel={t`Delete label`}
        busyLabel={t`Deleting…`}
        onConfirm={() => remove.mutateAsync(label._id)}
      />
    </li>
  );
}

function NewLabel({ boardId, count }: { boardId: string; count: number }) {
  const create = useCreateLabel(boardId);
  const [error, setError] = useState<string | null>(null);
  // A new form (empty name) after each label created.
  const [round, setRound] = useState(0);
  const { t } = useLingui();
  return (
    <details className="label-new">
      <summary className="label-new__summary">
        <Trans>New label</Trans>
      </summary>
      <LabelForm
        key={round}
        ariaLabel={t`New label`}
        initial={{ name: '', color: LABEL_COLORS[count % LABEL_COLORS.length] ?? 'gray' }}
        submitLabel={t`Create label`}
        busyLabel={t`Creating…`}
        busy={create.isPending}
        error={error}
        onSubmit={(values) => {
          setError(null);
          create.mutate(values, {
            onSuccess: () => {
              setRound((r) => r + 1);
            },
            onError: (failure) => {
              if (!isUnauthorized(failure)) setError(errorText(failure, { firstField: true }));
            },
          });
        }}
      />
    </details>
  );
}

/**
 * The board's labels in its settings: admins and members rename, recolour, delete (confirmed:
 * it comes off every task) and add them; viewers read the list.
 */
export function BoardLabelsSection({ boardId, canWrite }: { boardId: string; canWrite: boolean }) {
  const labels = useLabels(boardId);
  const headingId = useId();
  const count = labels.data ? formatNumber(labels.data.length) : null;
  const reason = labels.isError ? errorText(labels.error, { firstField: true }) : '';
  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{count === null ? <Trans>Labels</Trans> : <Trans>Labels ({count})</Trans>}</h2>
      {labels.isError ? (
        <RetryAlert onRetry={() => void labels.refetch()}>
          <Trans>Couldn’t load the labels. {reason}</Trans>
        </RetryAlert>
      ) : null}
      {labels.data?.length === 0 ? (
        <p className="board-settings__none">
          {canWrite ? <Trans>No labels yet. Create one here or from a task’s label picker.</Trans> : <Trans>No labels yet.</Trans>}
        </p>
      ) : null}
      {labels.data && labels.data.length > 0 ? (
        <ul className="label-rows">
          {labels.data.map((label) => (
            <LabelRow key={label._id} boardId={boardId} label={label} canWrite={canWrite} />
          ))}
        </ul>
      ) : null}
      {canWrite && labels.data && labels.data.length < LIMITS.labelsPerBoard ? <NewLabel boardId={boardId} count={labels.data.length} /> : null}
    </section>
  );
}

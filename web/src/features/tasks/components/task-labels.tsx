import { Trans } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { canChangeLabels } from '#shared/rights.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { sortLabels } from '#web/features/labels/api/get-labels.ts';
import { LabelChips } from '#web/features/labels/components/label-chips.tsx';
import { LabelPicker } from '#web/features/labels/components/label-picker.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useBoardScope, useCanChangeTask } from '../api/board-scope.ts';
import { useUpdateTask } from '../api/update-task.ts';
import './task-labels.css';

/**
 * The task page's labels: the chips, and for whoever may change the task the label picker.
 * The new set is saved as any edit is (`labelIds` with the task's version; a 409 opens the
 * conflict dialog). Only the board's admins and members create labels; the picker needs the
 * board's list, which only its members may read (an assignee from outside the board sees the
 * chips alone).
 */
export function TaskLabelsField({ task }: { task: Task }) {
  const { boards } = useBoardScope();
  const board = boards?.find((b) => b._id === task.boardId);
  const canChange = useCanChangeTask(task);
  const save = useUpdateTask({ quiet: true });
  const [error, setError] = useState<string | null>(null);
  return (
    <dd className="task-details__labels">
      {task.labels.length > 0 ? (
        <LabelChips labels={task.labels} />
      ) : (
        <span className="task-details__none">
          <Trans comment="A task’s labels, when it has none">None</Trans>
        </span>
      )}
      {canChange && board ? (
        <LabelPicker
          boardId={task.boardId}
          value={task.labels}
          canCreate={canChangeLabels(board.role)}
          onChange={(labels) => {
            setError(null);
            save.mutate(
              { task, changes: { labelIds: labels.map((label) => label._id) }, labels: sortLabels(labels) },
              {
                onError: (failure) => {
                  if (!isUnauthorized(failure)) setError(errorText(failure, { firstField: true }));
                },
              },
            );
          }}
        />
      ) : null}
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </dd>
  );
}

/**
 * The new-task form's labels: chips and the picker for the board the task goes to (the form
 * offers only boards where the viewer is admin or member, so they may create labels there).
 */
export function NewTaskLabelsField({ boardId, value, onChange }: { boardId: string; value: readonly Label[]; onChange: (labels: Label[]) => void }) {
  const captionId = useId();
  return (
    <div className="field" role="group" aria-labelledby={captionId}>
      <span className="field__label" id={captionId}>
        <Trans comment="Caption of the new-task form’s labels; “(optional)” is shown lighter">
          Labels<span className="field__optional"> (optional)</span>
        </Trans>
      </span>
      <div className="task-details__labels">
        <LabelChips labels={value} />
        <LabelPicker boardId={boardId} value={value} canCreate onChange={onChange} />
      </div>
    </div>
  );
}

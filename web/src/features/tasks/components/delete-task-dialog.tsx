import { Trans, useLingui } from '@lingui/react/macro';
import { useRef } from 'react';
import type { Task } from '#shared/schemas/tasks.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { useDeleteTask } from '../api/delete-task.ts';

/**
 * "Delete task?" as an alertdialog: focus starts on Cancel, the safe choice. Confirming closes
 * it and removes the card at once; a failure brings the card back with its message (see
 * useDeleteTask).
 */
export function DeleteTaskDialog({
  task,
  onClose,
  fallbackFocus,
}: {
  task: Task | null;
  onClose: () => void;
  fallbackFocus: () => HTMLElement | null;
}) {
  // Confirmed: the card (and the Delete button that opened this) is on its way out.
  const confirmedRef = useRef(false);
  const remove = useDeleteTask();
  const { notify } = useNotices();
  const { t } = useLingui();
  const titleText = task?.taskTitle ?? '';
  // Isolated in the sentence: the name reads in its own direction (decision 180).
  const title = <bdi>{titleText}</bdi>;

  const onConfirm = () => {
    if (!task) return;
    confirmedRef.current = true;
    remove.mutate(task, {
      onSuccess: () => {
        notify('success', t`Deleted “${{ title: titleText }}”.`);
      },
    });
    onClose();
  };

  return (
    <ConfirmDialog
      open={task !== null}
      onClose={onClose}
      title={t`Delete task?`}
      body={task ? <Trans>“{title}” will be removed for you and the other person. This cannot be undone.</Trans> : null}
      confirmLabel={t`Delete task`}
      onConfirm={onConfirm}
      fallbackFocus={fallbackFocus}
      returnFocus={() => {
        const confirmed = confirmedRef.current;
        confirmedRef.current = false;
        return confirmed ? fallbackFocus() : null;
      }}
    />
  );
}

import { useRef } from 'react';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { useDeleteTask } from '../api/delete-task.ts';

/**
 * "Delete task?" as an alertdialog: focus starts on Cancel, the safe choice. A non-204 answer
 * shows its message (or the seed's "Error deleting task") once the dialog has closed.
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
  const cancelRef = useRef<HTMLButtonElement>(null);
  const remove = useDeleteTask();
  const { notify } = useNotices();

  const onConfirm = () => {
    if (!task) return;
    remove.mutate(task, {
      onSuccess: () => {
        onClose();
        notify('success', `Deleted “${task.taskTitle}”.`);
      },
      onError: (error) => {
        onClose();
        if (!isUnauthorized(error)) notify('error', isApiError(error) ? error.message : String(error));
      },
    });
  };

  return (
    <Dialog
      open={task !== null}
      onClose={() => {
        if (!remove.isPending) onClose();
      }}
      variant="center"
      role="alertdialog"
      title="Delete task?"
      description={task ? <>“{task.taskTitle}” will be removed for you and the other person. This cannot be undone.</> : null}
      initialFocusRef={cancelRef}
      fallbackFocus={fallbackFocus}
      hideCloseButton
      footer={
        <>
          <Button ref={cancelRef} onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} busy={remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete task'}
          </Button>
        </>
      }
    />
  );
}

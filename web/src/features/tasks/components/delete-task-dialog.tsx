import { useRef } from 'react';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
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
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Confirmed: the card (and the Delete button that opened this) is on its way out.
  const confirmedRef = useRef(false);
  const remove = useDeleteTask();
  const { notify } = useNotices();

  const onConfirm = () => {
    if (!task) return;
    confirmedRef.current = true;
    remove.mutate(task, {
      onSuccess: () => {
        notify('success', `Deleted “${task.taskTitle}”.`);
      },
    });
    onClose();
  };

  return (
    <Dialog
      open={task !== null}
      onClose={onClose}
      variant="center"
      role="alertdialog"
      title="Delete task?"
      description={task ? <>“{task.taskTitle}” will be removed for you and the other person. This cannot be undone.</> : null}
      initialFocusRef={cancelRef}
      fallbackFocus={fallbackFocus}
      returnFocus={() => {
        const confirmed = confirmedRef.current;
        confirmedRef.current = false;
        return confirmed ? fallbackFocus() : null;
      }}
      hideCloseButton
      footer={
        <>
          <Button ref={cancelRef} onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            Delete task
          </Button>
        </>
      }
    />
  );
}

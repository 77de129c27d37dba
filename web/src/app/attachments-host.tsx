import { useCallback } from 'react';
import type { Attachment } from '#shared/schemas/attachments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { TaskAttachments } from '#web/features/attachments/components/task-attachments.tsx';
import { useCanChangeTask, useCanDeleteAttachment } from '#web/features/tasks/api/board-scope.ts';
import { useUpdateTask } from '#web/features/tasks/api/update-task.ts';

/** The card's cover an image makes, shown at once while the change is sent. */
function coverOf(attachment: Attachment | null): Task['cover'] {
  if (!attachment?.thumbnailUrl || attachment.width === undefined || attachment.height === undefined) return null;
  return { attachmentId: attachment._id, thumbnailUrl: attachment.thumbnailUrl, width: attachment.width, height: attachment.height };
}

/**
 * The files on the task page. Who may add them is who may change the task (the checklist's rule,
 * shared/rights.ts); Delete is offered, among them, to a file's uploader and the board's admins. The cover is a change of the task itself (`PATCH {coverId}`), queued with its
 * other changes.
 */
export function TaskPageAttachments({ task }: { task: Task }) {
  const canChange = useCanChangeTask(task);
  const canDelete = useCanDeleteAttachment(task);
  const { mutate } = useUpdateTask();
  const onCover = useCallback(
    (attachment: Attachment | null) => {
      mutate({ task, changes: { coverId: attachment?._id ?? null }, cover: coverOf(attachment) });
    },
    [mutate, task],
  );
  return <TaskAttachments task={task} canChange={canChange} canDelete={canDelete} onCover={onCover} />;
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Attachment } from '#shared/schemas/attachments.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { attachmentsPath } from './get-attachments.ts';
import { attachmentKeys } from './query-keys.ts';

/** `DELETE /api/tasks/:id/attachments/:attachmentId`: 204. The uploader and the board's admins may; the server decides. */
export async function deleteAttachment(taskId: string, attachmentId: string): Promise<void> {
  await apiRequest<undefined>(attachmentsPath(taskId, attachmentId), { method: 'DELETE', expectNoContent: true });
}

/**
 * Deletes a file once the server has: a file is not a change that can wait on the device, and
 * a refusal (not the uploader, not an admin) is said where it was asked.
 */
export function useDeleteAttachment(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attachmentId: string) => deleteAttachment(taskId, attachmentId),
    onSuccess: (_answer, attachmentId) => {
      queryClient.setQueryData<Attachment[]>(attachmentKeys.list(taskId), (list) => list?.filter((a) => a._id !== attachmentId));
    },
  });
}

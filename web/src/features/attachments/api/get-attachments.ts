import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { Attachment, AttachmentListEnvelope } from '#shared/schemas/attachments.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { attachmentKeys } from './query-keys.ts';

export const attachmentsPath = (taskId: string, attachmentId?: string) =>
  `/tasks/${encodeURIComponent(taskId)}/attachments${attachmentId === undefined ? '' : `/${encodeURIComponent(attachmentId)}`}`;

/** `GET /api/tasks/:id/attachments`: newest first. */
export async function getAttachments(taskId: string, signal?: AbortSignal): Promise<Attachment[]> {
  const envelope = await apiRequest<Static<typeof AttachmentListEnvelope>>(attachmentsPath(taskId), { signal });
  return envelope.data.attachments;
}

/**
 * A task's files. Asked for only when the task says it has some (`count`, its `attachmentCount`):
 * most tasks have none, and a task's count follows every change live, so the first file
 * someone adds makes the list load.
 */
export function useAttachments(taskId: string, count: number) {
  return useQuery(
    queryOptions({
      queryKey: attachmentKeys.list(taskId),
      queryFn: ({ signal }) => getAttachments(taskId, signal),
      enabled: count > 0,
    }),
  );
}

/** One attachment into a list, newest first; one already there is replaced, never shown twice. */
export function withAttachment(list: readonly Attachment[], attachment: Attachment): Attachment[] {
  if (list.some((a) => a._id === attachment._id)) return list.map((a) => (a._id === attachment._id ? attachment : a));
  return [attachment, ...list].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** Asks for the task's files again now, whether or not its page has them enabled yet (after an upload whose answer does not carry the file). */
export async function refetchAttachments(queryClient: QueryClient, taskId: string): Promise<void> {
  await queryClient.query({ queryKey: attachmentKeys.list(taskId), queryFn: ({ signal }) => getAttachments(taskId, signal), staleTime: 0 });
}

import type { QueryClient } from '@tanstack/react-query';
import type { Attachment } from '#shared/schemas/attachments.ts';
import { withAttachment } from './get-attachments.ts';
import { attachmentKeys } from './query-keys.ts';

/*
 * The attachment events of the live stream, written into a task's cached files (its page shows
 * someone else's upload as it happens): `attachment.created` carries the attachment,
 * `attachment.deleted` its id. The task's count and cover come with its own `task.updated`. A
 * task whose files are not cached is left alone: its page asks for them when opened.
 */

export const ATTACHMENT_EVENTS = ['attachment.created', 'attachment.deleted'] as const;
type AttachmentEventType = (typeof ATTACHMENT_EVENTS)[number];

interface AttachmentEventData {
  taskId: string;
  attachment: Attachment | { _id: string };
}

const isAttachmentEventType = (type: string): type is AttachmentEventType => (ATTACHMENT_EVENTS as readonly string[]).includes(type);

function isAttachmentEventData(type: AttachmentEventType, value: unknown): value is AttachmentEventData {
  if (typeof value !== 'object' || value === null) return false;
  const { taskId, attachment } = value as { taskId?: unknown; attachment?: Partial<Record<keyof Attachment, unknown>> };
  if (typeof taskId !== 'string' || typeof attachment?._id !== 'string') return false;
  return type === 'attachment.deleted' || (typeof attachment.url === 'string' && typeof attachment.name === 'string' && typeof attachment.createdAt === 'string');
}

/** Writes one attachment event into the cache; returns the id of the task whose files it changed, or null. */
export function applyAttachmentEvent(queryClient: QueryClient, type: string, data: unknown): string | null {
  if (!isAttachmentEventType(type) || !isAttachmentEventData(type, data)) return null;
  const key = attachmentKeys.list(data.taskId);
  if (queryClient.getQueryData(key) === undefined) return null;
  queryClient.setQueryData<Attachment[]>(key, (list = []) =>
    type === 'attachment.deleted' ? list.filter((a) => a._id !== data.attachment._id) : withAttachment(list, data.attachment as Attachment),
  );
  return data.taskId;
}

/** After events may have been missed: every cached file list is asked again. */
export async function refreshAttachments(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: attachmentKeys.all });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Comment, CommentEnvelope } from '#shared/schemas/comments.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { withComment } from './comment-events.ts';
import { commentKeys, commentsPath } from './get-comments.ts';

/*
 * Post, edit and delete a comment. Each writes the server's answer into the cached list at
 * once; other people's comments arrive as live events (comment-events.ts). `onChanged` lets
 * the page refresh what else a comment changes (the task's activity).
 */

/** A written comment and the server's message (which says when mention mail was held back). */
export interface Written {
  comment: Comment;
  message: string;
}

export async function createComment(taskId: string, body: string): Promise<Written> {
  const envelope = await apiRequest<CommentEnvelope>(commentsPath(taskId), { method: 'POST', body: { body } });
  return { comment: envelope.data.comment, message: envelope.message };
}

export async function updateComment(taskId: string, commentId: string, body: string): Promise<Written> {
  const envelope = await apiRequest<CommentEnvelope>(`${commentsPath(taskId)}/${encodeURIComponent(commentId)}`, {
    method: 'PATCH',
    body: { body },
  });
  return { comment: envelope.data.comment, message: envelope.message };
}

/** The part of a write's message about mention mail the sender's hourly cap held back, or null. */
export const heldMailNote = (written: Written | null): string | null =>
  written?.message.includes(SERVER_MESSAGES.mailCapReached) === true ? SERVER_MESSAGES.mailCapReached : null;

export async function deleteComment(taskId: string, commentId: string): Promise<void> {
  await apiRequest<undefined>(`${commentsPath(taskId)}/${encodeURIComponent(commentId)}`, { method: 'DELETE', expectNoContent: true });
}

type Change = { kind: 'create'; body: string } | { kind: 'update'; commentId: string; body: string } | { kind: 'delete'; commentId: string };

export function useChangeComment(taskId: string, onChanged?: () => void) {
  const queryClient = useQueryClient();
  const key = commentKeys.list(taskId);
  return useMutation({
    mutationFn: async (change: Change): Promise<Written | null> => {
      if (change.kind === 'create') return createComment(taskId, change.body);
      if (change.kind === 'update') return updateComment(taskId, change.commentId, change.body);
      await deleteComment(taskId, change.commentId);
      return null;
    },
    onSuccess: (written, change) => {
      queryClient.setQueryData<Comment[]>(key, (list = []) => {
        if (change.kind === 'delete') return list.filter((c) => c._id !== change.commentId);
        return written ? withComment(list, written.comment) : list;
      });
      onChanged?.();
    },
  });
}

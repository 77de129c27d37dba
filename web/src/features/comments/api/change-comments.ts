import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Comment, CommentEnvelope } from '#shared/schemas/comments.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { withComment } from './comment-events.ts';
import { commentKeys, commentsPath } from './get-comments.ts';

/*
 * Post, edit and delete a comment. Each writes the server's answer into the cached list at
 * once; other people's comments arrive as live events (comment-events.ts). `onChanged` lets
 * the page refresh what else a comment changes (the task's activity).
 */

export async function createComment(taskId: string, body: string): Promise<Comment> {
  const envelope = await apiRequest<CommentEnvelope>(commentsPath(taskId), { method: 'POST', body: { body } });
  return envelope.data.comment;
}

export async function updateComment(taskId: string, commentId: string, body: string): Promise<Comment> {
  const envelope = await apiRequest<CommentEnvelope>(`${commentsPath(taskId)}/${encodeURIComponent(commentId)}`, {
    method: 'PATCH',
    body: { body },
  });
  return envelope.data.comment;
}

export async function deleteComment(taskId: string, commentId: string): Promise<void> {
  await apiRequest<undefined>(`${commentsPath(taskId)}/${encodeURIComponent(commentId)}`, { method: 'DELETE', expectNoContent: true });
}

type Change = { kind: 'create'; body: string } | { kind: 'update'; commentId: string; body: string } | { kind: 'delete'; commentId: string };

export function useChangeComment(taskId: string, onChanged?: () => void) {
  const queryClient = useQueryClient();
  const key = commentKeys.list(taskId);
  return useMutation({
    mutationFn: async (change: Change): Promise<Comment | null> => {
      if (change.kind === 'create') return createComment(taskId, change.body);
      if (change.kind === 'update') return updateComment(taskId, change.commentId, change.body);
      await deleteComment(taskId, change.commentId);
      return null;
    },
    onSuccess: (comment, change) => {
      queryClient.setQueryData<Comment[]>(key, (list = []) => {
        if (change.kind === 'delete') return list.filter((c) => c._id !== change.commentId);
        return comment ? withComment(list, comment) : list;
      });
      onChanged?.();
    },
  });
}

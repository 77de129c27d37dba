import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS } from '#shared/constants.ts';
import type { Comment, CommentListEnvelope } from '#shared/schemas/comments.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** Trimmed length bound of a comment's body. */
export const COMMENT_MAX = LIMITS.commentMax;

export const commentKeys = {
  all: ['comments'] as const,
  list: (taskId: string) => [...commentKeys.all, taskId] as const,
};

export const commentsPath = (taskId: string) => `/tasks/${encodeURIComponent(taskId)}/comments`;

/** `GET /api/tasks/:id/comments`: oldest first. */
export async function getComments(taskId: string, signal?: AbortSignal): Promise<Comment[]> {
  const envelope = await apiRequest<CommentListEnvelope>(commentsPath(taskId), { signal });
  return envelope.data.comments;
}

/** The comments' query: the list's hook, and the task page's prefetch beside the task. */
export function commentsQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: commentKeys.list(taskId),
    queryFn: ({ signal }) => getComments(taskId, signal),
  });
}

export function useComments(taskId: string) {
  return useQuery(commentsQueryOptions(taskId));
}

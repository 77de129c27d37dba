import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS } from '#shared/constants.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** A comment as the API returns it. */
export interface Comment {
  _id: string;
  taskId: string;
  body: string;
  author: { fullName: string; email: string };
  createdAt: string;
  updatedAt: string;
}

/** Trimmed length bound of a comment's body. */
export const COMMENT_MAX = LIMITS.commentMax;

export const commentKeys = {
  all: ['comments'] as const,
  list: (taskId: string) => [...commentKeys.all, taskId] as const,
};

export const commentsPath = (taskId: string) => `/tasks/${encodeURIComponent(taskId)}/comments`;

/** `GET /api/tasks/:id/comments`: oldest first. */
export async function getComments(taskId: string, signal?: AbortSignal): Promise<Comment[]> {
  const envelope = await apiRequest<{ data: { comments: Comment[] } }>(commentsPath(taskId), { signal });
  return envelope.data.comments;
}

export function useComments(taskId: string) {
  return useQuery(
    queryOptions({
      queryKey: commentKeys.list(taskId),
      queryFn: ({ signal }) => getComments(taskId, signal),
    }),
  );
}

import type { QueryClient } from '@tanstack/react-query';
import type { Comment } from '#shared/schemas/comments.ts';
import { commentKeys } from './get-comments.ts';

/*
 * The comment events of the live stream, written into a task's cached comments (the task page
 * shows them, and their count, as they happen): `comment.created` and `comment.updated` carry
 * the comment, `comment.deleted` its id. A task whose comments are not cached is left alone: its
 * page asks for them when opened.
 */

export const COMMENT_EVENTS = ['comment.created', 'comment.updated', 'comment.deleted'] as const;
export type CommentEventType = (typeof COMMENT_EVENTS)[number];

export interface CommentEventData {
  taskId: string;
  comment: Comment | { _id: string };
}

const isCommentEventType = (type: string): type is CommentEventType => (COMMENT_EVENTS as readonly string[]).includes(type);

function isCommentEventData(type: CommentEventType, value: unknown): value is CommentEventData {
  if (typeof value !== 'object' || value === null) return false;
  const { taskId, comment } = value as { taskId?: unknown; comment?: Partial<Record<keyof Comment, unknown>> };
  if (typeof taskId !== 'string' || typeof comment?._id !== 'string') return false;
  return type === 'comment.deleted' || (typeof comment.body === 'string' && typeof comment.updatedAt === 'string');
}

/** The stand-in ids of comments this page is still posting (change-comments.ts makes them). */
export const STAND_IN_PREFIX = 'pending-';

/**
 * A comment from the server (an answer or an event) into its task's cached list; an older copy
 * never replaces a newer one. The live event of a comment this page posted often arrives before
 * the answer to the post: it takes the place of the first stand-in with the same author and text,
 * so the comment never shows twice, not even for a moment.
 */
export function withComment(list: readonly Comment[], comment: Comment): Comment[] {
  const cached = list.find((c) => c._id === comment._id);
  if (!cached) {
    const standIn = list.findIndex(
      (c) => c._id.startsWith(STAND_IN_PREFIX) && c.author.email === comment.author.email && c.body.trim() === comment.body.trim(),
    );
    if (standIn < 0) return [...list, comment];
    return list.map((c, i) => (i === standIn ? comment : c));
  }
  if (cached.updatedAt > comment.updatedAt) return [...list];
  return list.map((c) => (c._id === comment._id ? comment : c));
}

/**
 * Writes one comment event into the cache. Returns the id of the task whose comments it changed
 * (its activity may have changed too), or `null` when the event was not one or no page holds them.
 */
export function applyCommentEvent(queryClient: QueryClient, type: string, data: unknown): string | null {
  if (!isCommentEventType(type) || !isCommentEventData(type, data)) return null;
  const key = commentKeys.list(data.taskId);
  if (queryClient.getQueryData(key) === undefined) return null;
  queryClient.setQueryData<Comment[]>(key, (list = []) =>
    type === 'comment.deleted' ? list.filter((c) => c._id !== data.comment._id) : withComment(list, data.comment as Comment),
  );
  return data.taskId;
}

/** After events may have been missed: every cached comment list is asked again. */
export async function refreshComments(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: commentKeys.all });
}

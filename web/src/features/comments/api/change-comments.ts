import { t } from '@lingui/core/macro';
import { useMutation, type MutateOptions, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Comment, CommentEnvelope, Person } from '#shared/schemas/comments.ts';
import { apiRequest, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { markMadeHere, newStandInId, QUEUED_WRITE_OPTIONS, queueNotices, sendDelete, THIS_PAGE_LOAD } from '#web/lib/write-queue.ts';
import { STAND_IN_PREFIX, withComment } from './comment-events.ts';
import { commentKeys, commentsPath } from './get-comments.ts';

/*
 * Post, edit and delete a comment. Each shows at once in the cached list and waits in the
 * device's queue of changes with every other change; the server's answer then takes its place.
 * Other people's comments arrive as live events (comment-events.ts). `onChanged` lets the page
 * refresh what else a comment changes (the task's activity).
 */

export const CHANGE_COMMENT_KEY = ['queued', 'comment'] as const;

/** A written comment and the server's message (which says when mention mail was held back). */
export interface Written {
  comment: Comment;
  message: string;
}

export async function createComment(taskId: string, body: string, idempotencyKey?: string): Promise<Written> {
  const envelope = await apiRequest<CommentEnvelope>(commentsPath(taskId), { method: 'POST', body: { body }, idempotencyKey });
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

/** `author`: who posts it, shown on the stand-in until the server's comment arrives. */
type Change = { kind: 'create'; body: string; author?: Person } | { kind: 'update'; commentId: string; body: string } | { kind: 'delete'; commentId: string };

/** A comment change as it waits in the queue: everything needed to send it after a reload. */
export interface CommentVariables {
  taskId: string;
  change: Change;
  /** For a post: made with it, the same on every try, so the server writes the comment once. */
  idempotencyKey?: string;
  /** For a post: the stand-in comment's id. */
  pendingId?: string;
}
interface CommentContext {
  /** The comment as it was before an edit or delete, and its place. */
  before: Comment | undefined;
  index: number;
  madeIn: string;
}

export const isPendingComment = (comment: Comment): boolean => comment._id.startsWith(STAND_IN_PREFIX);

async function send(variables: CommentVariables): Promise<Written | null> {
  const { taskId, change, idempotencyKey } = variables;
  if (change.kind === 'create') return createComment(taskId, change.body, idempotencyKey);
  if (change.kind === 'update') return updateComment(taskId, change.commentId, change.body);
  await sendDelete(variables, () => deleteComment(taskId, change.commentId));
  return null;
}

function shownAtOnce(list: readonly Comment[], { taskId, change, pendingId }: CommentVariables): Comment[] {
  const now = new Date().toISOString();
  switch (change.kind) {
    case 'create':
      return [
        ...list,
        {
          _id: pendingId ?? newStandInId(STAND_IN_PREFIX),
          taskId,
          body: change.body,
          author: change.author ?? { fullName: t({ message: 'You', comment: 'The author shown on a comment being posted, until the server’s copy arrives' }), email: '' },
          createdAt: now,
          updatedAt: now,
          mentions: [],
        },
      ];
    case 'update':
      return list.map((c) => (c._id === change.commentId ? { ...c, body: change.body, updatedAt: now } : c));
    case 'delete':
      return list.filter((c) => c._id !== change.commentId);
  }
}

/** Takes back one refused change, leaving what arrived since as it is. */
function takenBack(list: readonly Comment[], { change, pendingId }: CommentVariables, context: CommentContext | undefined): Comment[] {
  if (change.kind === 'create') return list.filter((c) => c._id !== pendingId);
  const before = context?.before;
  if (!before) return [...list];
  if (change.kind === 'update') return list.map((c) => (c._id === before._id && c.body === change.body ? before : c));
  if (list.some((c) => c._id === before._id)) return [...list];
  const next = [...list];
  next.splice(Math.min(context.index, next.length), 0, before);
  return next;
}

/** What a refused change restored from the device says, with the server's reason (made when it is said). */
function failedText(kind: Change['kind'], reason: string): string {
  switch (kind) {
    case 'create':
      return t`Couldn’t post your comment. ${reason}`;
    case 'update':
      return t`Couldn’t save your comment. ${reason}`;
    case 'delete':
      return t`Couldn’t delete the comment. ${reason}`;
  }
}

/** How a comment change is sent and answered, for this session's changes and restored ones alike. */
export function registerCommentWrites(queryClient: QueryClient): void {
  queryClient.setMutationDefaults<Written | null, Error, CommentVariables, CommentContext>(CHANGE_COMMENT_KEY, {
    ...QUEUED_WRITE_OPTIONS,
    mutationFn: send,
    onMutate: async (variables) => {
      markMadeHere(variables);
      const key = commentKeys.list(variables.taskId);
      // A fetch under way may answer from before this change.
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const list = queryClient.getQueryData<Comment[]>(key);
      const id = variables.change.kind === 'create' ? null : variables.change.commentId;
      const index = list && id !== null ? list.findIndex((c) => c._id === id) : -1;
      if (list) queryClient.setQueryData<Comment[]>(key, shownAtOnce(list, variables));
      return { before: index < 0 ? undefined : list?.[index], index, madeIn: THIS_PAGE_LOAD };
    },
    onSuccess: (written, { taskId, change, pendingId }) => {
      queryClient.setQueryData<Comment[]>(commentKeys.list(taskId), (list) => {
        if (!list) return list;
        if (change.kind === 'delete') return list.filter((c) => c._id !== change.commentId);
        const rest = change.kind === 'create' ? list.filter((c) => c._id !== pendingId) : list;
        return written ? withComment(rest, written.comment) : rest;
      });
    },
    onError: (error, variables, context) => {
      queryClient.setQueryData<Comment[]>(commentKeys.list(variables.taskId), (list) => (list ? takenBack(list, variables, context) : list));
      // The form that made it says why; a change restored from the device has no form.
      if (context?.madeIn !== THIS_PAGE_LOAD && !isUnauthorized(error)) {
        queueNotices.send(queryClient, { tone: 'error', text: failedText(variables.change.kind, errorText(error)) });
      }
    },
  });
}

type Options = MutateOptions<Written | null, Error, CommentVariables, CommentContext>;

export function useChangeComment(taskId: string, onChanged?: () => void) {
  const mutation = useMutation<Written | null, Error, CommentVariables, CommentContext>({ mutationKey: CHANGE_COMMENT_KEY });
  const { mutate: sendChange } = mutation;
  const mutate = useCallback(
    (change: Change, options?: Options) => {
      const made = change.kind === 'create' ? { idempotencyKey: crypto.randomUUID(), pendingId: newStandInId(STAND_IN_PREFIX) } : {};
      sendChange(
        { taskId, change, ...made },
        {
          ...options,
          onSuccess: (...answer) => {
            onChanged?.();
            options?.onSuccess?.(...answer);
          },
        },
      );
    },
    [sendChange, taskId, onChanged],
  );
  return useMemo(() => ({ ...mutation, mutate }), [mutation, mutate]);
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import {
  ActivityListEnvelope,
  CommentBody,
  CommentEnvelope,
  CommentListEnvelope,
  CommentParams,
  type Comment,
} from '#shared/schemas/comments.ts';
import { TaskParams, type Task } from '#shared/schemas/tasks.ts';
import { checkCommentBody } from '#shared/validation.ts';
import { newId } from '../../db/ids.ts';
import type { Executor } from '../../db/prepared.ts';
import { AppError } from '../../errors.ts';
import { currentUser } from '../../plugins/session.ts';
import { appendEvent, taskAudience, type EventTransaction, type EventType } from '../../repositories/events-repository.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';

const taskNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.taskNotFound);
const commentNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.commentNotFound);
/** Our ids are base64url; anything else cannot exist and answers 404 without a query. */
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A task's comments and activity log. Every call answers 404 for a task the user cannot see,
 * exactly as for a missing one; only a comment's author may change or delete it (403 for the
 * other person who can see the task). A new comment also writes a `commented` activity entry,
 * and every change appends its `comment.*` event for the task's audience, in the same
 * transaction (run by `fastify.events`, which wakes this instance's streams after the commit).
 */
const comments: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock } = fastify;
  const tasks = fastify.tasksRepository;
  const repo = fastify.commentsRepository;
  const activity = fastify.activityRepository;

  fastify.addHook('onRequest', fastify.authenticate);

  const actorOf = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    return { userId: user.id, email: user.email, fullName: user.fullName };
  };

  /** The task if the user may see it, else 404; read inside `ex` when given. */
  async function visibleTask(request: Parameters<typeof currentUser>[0], id: string, ex?: Executor): Promise<Task> {
    if (!ID_RE.test(id)) throw taskNotFound();
    const task = await tasks.findVisible(id, actorOf(request), ex);
    if (task === undefined) throw taskNotFound();
    return task;
  }

  /** The comment the author is changing: 404 when it is not on this task, 403 for anyone else. */
  async function ownComment(request: Parameters<typeof currentUser>[0], taskId: string, commentId: string, ex: Executor): Promise<Comment> {
    if (!ID_RE.test(commentId)) throw commentNotFound();
    const stored = await repo.findInTask(taskId, commentId, ex);
    if (stored === undefined) throw commentNotFound();
    if (stored.authorId !== currentUser(request).id) throw new AppError(403, 'FORBIDDEN', SERVER_MESSAGES.notCommentAuthor);
    return stored.comment;
  }

  /** `{taskId, comment, by}` to everyone who can see the task (its creator and assignee). */
  const publish = (trx: EventTransaction, type: EventType, task: Task, comment: Comment | { _id: string }, by: { fullName: string; email: string }, at: string) =>
    appendEvent(trx, { type, taskId: task._id, audience: taskAudience(task), data: { taskId: task._id, comment, by }, at });
  const personOf = (request: Parameters<typeof currentUser>[0]) => {
    const { fullName, email } = currentUser(request);
    return { fullName, email };
  };

  fastify.get(
    '/tasks/:id/comments',
    {
      schema: {
        tags: ['comments'],
        summary: "A task's comments, oldest first",
        description: 'Comments of a task I can see; 404 NOT_FOUND for a task I cannot see.',
        security: sessionSecurity,
        params: TaskParams,
        response: { 200: serializable(CommentListEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const task = await visibleTask(request, request.params.id);
      return { status: 'success', data: { comments: await repo.listForTask(task._id) } } as const;
    },
  );

  fastify.post(
    '/tasks/:id/comments',
    {
      schema: {
        tags: ['comments'],
        summary: 'Comment on a task',
        description: '201 with the comment. Anyone who can see the task may comment; the change reaches the other people on the task as a live event.',
        security: sessionSecurity,
        params: TaskParams,
        body: CommentBody,
        response: { 201: serializable(CommentEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { body } = checkFields({ body: checkCommentBody(request.body.body) });
      const actor = actorOf(request);
      const now = clock.now().toISOString();
      const comment = await fastify.events.transaction(async (trx) => {
        const task = await visibleTask(request, request.params.id, trx);
        const row = { id: newId(), taskId: task._id, authorId: actor.userId, authorName: actor.fullName, authorEmail: actor.email, body, createdAt: now, updatedAt: now };
        await repo.insert(row, trx);
        await activity.insert(
          [{ id: newId(), taskId: task._id, type: 'commented', actorId: actor.userId, actorName: actor.fullName, actorEmail: actor.email, at: now, changes: null }],
          trx,
        );
        const created: Comment = { _id: row.id, taskId: task._id, body, author: { fullName: actor.fullName, email: actor.email }, createdAt: now, updatedAt: now };
        await publish(trx, 'comment.created', task, created, created.author, now);
        return created;
      });
      return reply.code(201).send({ status: 'success', message: SERVER_MESSAGES.commentAdded, data: { comment } });
    },
  );

  fastify.patch(
    '/tasks/:id/comments/:commentId',
    {
      schema: {
        tags: ['comments'],
        summary: 'Change my comment',
        description: 'Only the comment\'s author may change it (404 NOT_FOUND otherwise).',
        security: sessionSecurity,
        params: CommentParams,
        body: CommentBody,
        response: { 200: serializable(CommentEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { body } = checkFields({ body: checkCommentBody(request.body.body) });
      const now = clock.now().toISOString();
      const comment = await fastify.events.transaction(async (trx) => {
        const task = await visibleTask(request, request.params.id, trx);
        const current = await ownComment(request, task._id, request.params.commentId, trx);
        if (current.body === body) return current;
        await repo.updateBody(current._id, body, now, trx);
        const updated: Comment = { ...current, body, updatedAt: now };
        await publish(trx, 'comment.updated', task, updated, personOf(request), now);
        return updated;
      });
      return { status: 'success', message: SERVER_MESSAGES.commentUpdated, data: { comment } } as const;
    },
  );

  fastify.delete(
    '/tasks/:id/comments/:commentId',
    {
      schema: {
        tags: ['comments'],
        summary: 'Delete my comment: 204 with an empty body',
        description: 'Only the comment\'s author may delete it (404 NOT_FOUND otherwise).',
        security: sessionSecurity,
        params: CommentParams,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await fastify.events.transaction(async (trx) => {
        const task = await visibleTask(request, request.params.id, trx);
        const current = await ownComment(request, task._id, request.params.commentId, trx);
        await repo.delete(current._id, trx);
        await publish(trx, 'comment.deleted', task, { _id: current._id }, personOf(request), clock.now().toISOString());
      });
      return reply.code(204).send(null);
    },
  );

  fastify.get(
    '/tasks/:id/activity',
    {
      schema: {
        tags: ['comments'],
        summary: "A task's activity log, oldest first",
        description:
          '`type`: created, updated (with `changes: {field: {from, to}}` for taskTitle, workTitle, description, ' +
          'assignee, priority, deadline), completed, reopened or commented.',
        security: sessionSecurity,
        params: TaskParams,
        response: { 200: serializable(ActivityListEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const task = await visibleTask(request, request.params.id);
      return { status: 'success', data: { activity: await activity.listForTask(task._id) } } as const;
    },
  );

  return Promise.resolve();
};

export default comments;

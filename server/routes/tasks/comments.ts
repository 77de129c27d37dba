import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import {
  ActivityListEnvelope,
  CommentBody,
  CommentEnvelope,
  CommentListEnvelope,
  CommentParams,
  PeopleEnvelope,
} from '#shared/schemas/comments.ts';
import { TaskParams, type Task } from '#shared/schemas/tasks.ts';
import { checkCommentBody } from '#shared/validation.ts';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../services/actor.ts';
import type { CommentWritten } from '../../services/comment-writes.ts';
import { answerOnce, IDEMPOTENCY_KEY_DOC } from '../../services/idempotency.ts';
import { existingId, taskNotFound } from '../../services/not-found.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { withMailNote } from '../../i18n/compose.ts';
import { translateFor } from '../../i18n/request-language.ts';

/**
 * A task's comments and activity log. Every call answers 404 for a task the user cannot see,
 * exactly as for a missing one. Changes are made by `fastify.commentWrites`
 * (services/comment-writes.ts: the comment, its activity entry, mentions, notifications and
 * `comment.*` event, written as one task write); `/people` lists whom a comment can mention.
 */
const comments: FastifyPluginAsyncTypebox = (fastify) => {
  const tasks = fastify.tasksRepository;
  const repo = fastify.commentsRepository;
  const activity = fastify.activityRepository;
  const writes = fastify.commentWrites;

  fastify.addHook('onRequest', fastify.authenticate);

  /** The task if the user may see it, else 404. */
  async function visibleTask(request: FastifyRequest, id: string): Promise<Task> {
    const task = await tasks.findVisible(existingId(id), actorOf(request));
    if (task === undefined) throw taskNotFound();
    return task;
  }

  /** The answer to a new comment. */
  const commentAnswer =
    (request: FastifyRequest) =>
    ({ comment, mailsHeld }: CommentWritten) => ({
      status: 201,
      payload: { status: 'success', message: translateFor(request, withMailNote(SERVER_MESSAGES.commentAdded, mailsHeld)), data: { comment } },
    });

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
        description:
          '201 with the comment. Anyone who can see the task may comment; the change reaches the other people on the task as a live event. ' +
          '`@address` mentions of people who can see the task (at most 20 addresses count) are listed in `mentions`, and each of them but the author ' +
          'gets one mail (unless they turned mention mail off); other addresses stay plain text. Past the sender\'s hourly mail cap the comment ' +
          'is still written and `message` says the mail was held. ' +
          'With `Idempotency-Key`, a repeat of the same comment answers the first answer again and writes nothing (see the header).',
        security: sessionSecurity,
        params: TaskParams,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ description: IDEMPOTENCY_KEY_DOC })) }),
        body: CommentBody,
        response: { 201: serializable(CommentEnvelope), ...errorResponses },
      },
    },
    // Sent by answerOnce: with an Idempotency-Key, a repeat is answered before the checks.
    (request, reply) => answerOnce(request, reply, `POST /api/tasks/${request.params.id}/comments`, commentAnswer(request), (once) => {
      const { body } = checkFields({ body: checkCommentBody(request.body.body) });
      return writes.add(actorOf(request), existingId(request.params.id), body, once);
    }),
  );

  fastify.patch(
    '/tasks/:id/comments/:commentId',
    {
      schema: {
        tags: ['comments'],
        summary: 'Change my comment',
        description:
          'Only the comment\'s author may change it (404 NOT_FOUND otherwise). Its `mentions` are read again from the new text; ' +
          'only people not mentioned before the edit get a mail.',
        security: sessionSecurity,
        params: CommentParams,
        body: CommentBody,
        response: { 200: serializable(CommentEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { body } = checkFields({ body: checkCommentBody(request.body.body) });
      const written = await writes.edit(actorOf(request), existingId(request.params.id), request.params.commentId, body);
      const message = translateFor(request, withMailNote(SERVER_MESSAGES.commentUpdated, written.mailsHeld));
      return { status: 'success', message, data: { comment: written.comment } } as const;
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
      await writes.remove(actorOf(request), existingId(request.params.id), request.params.commentId);
      return reply.code(204).send(null);
    },
  );

  fastify.get(
    '/tasks/:id/people',
    {
      schema: {
        tags: ['comments'],
        summary: 'Who can be mentioned on a task',
        description:
          'Everyone with an account who can see the task (the active members of its board, any role, and its assignee), ' +
          'by name: what the comment box offers after `@`. The whole list (a board has at most 1,000 members); ' +
          '404 NOT_FOUND for a task I cannot see.',
        security: sessionSecurity,
        params: TaskParams,
        response: { 200: serializable(PeopleEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const people = await repo.people(existingId(request.params.id), actorOf(request));
      if (people === undefined) throw taskNotFound();
      return { status: 'success', data: { people } } as const;
    },
  );

  fastify.get(
    '/tasks/:id/activity',
    {
      schema: {
        tags: ['comments'],
        summary: "A task's activity log, oldest first",
        description:
          '`type`: created (with `repeatOf: {_id, taskTitle}` for the next occurrence of a repeating task), ' +
          'updated (with `changes: {field: {from, to}}` for taskTitle, workTitle, description, ' +
          'assignee, priority, deadline, board, labels and repeat), completed, reopened, commented, or checklist ' +
          '(with `checklist: {action, text}`; action added, checked, unchecked, edited, moved or deleted).',
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

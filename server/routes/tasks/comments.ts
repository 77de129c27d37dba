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
  type Comment,
} from '#shared/schemas/comments.ts';
import { TaskParams, type Task } from '#shared/schemas/tasks.ts';
import { checkCommentBody } from '#shared/validation.ts';
import type { FastifyRequest } from 'fastify';
import { newId } from '../../db/ids.ts';
import type { Executor } from '../../db/prepared.ts';
import { AppError } from '../../errors.ts';
import { mentionedAddresses } from '#shared/mentions.ts';
import { planMentions } from '../../services/mentions.ts';
import { commentNotifications } from '../../services/notifications.ts';
import { answerOnce, IDEMPOTENCY_KEY_DOC } from '../../services/idempotency.ts';
import { actorOf, existingId, taskNotFound, type Actor } from '../../services/task-writes.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';

const commentNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.commentNotFound);

/**
 * A task's comments and activity log. Every call answers 404 for a task the user cannot see,
 * exactly as for a missing one; only a comment's author may change or delete it (403 for the
 * other person who can see the task). Changes go through `taskWrites.comment`, the write path
 * of task changes: a new comment also writes a `commented` activity entry, and every change
 * appends its `comment.*` event for whoever can see the task (its board's active members and
 * its assignee) as of the version that commits. Mentions (services/mentions.ts) are read in the
 * same write; `/people` lists whom a comment can mention.
 */
const comments: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock } = fastify;
  const tasks = fastify.tasksRepository;
  const repo = fastify.commentsRepository;
  const activity = fastify.activityRepository;
  const writes = fastify.taskWrites;
  const mentionDeps = { comments: repo, taskMail: fastify.taskMail };
  /** A comment that mentions anyone is planned inside its write's transaction (who sees the task is read there). */
  const optionsFor = (body: string) => ({ inTransaction: mentionedAddresses(body).length > 0 });
  /** The answer's message: the write's own, and a word about mention mail the sender's hourly cap held back. */
  const withMailNote = (message: string, mailsHeld: number) => (mailsHeld > 0 ? `${message} ${SERVER_MESSAGES.mailCapReached}` : message);

  fastify.addHook('onRequest', fastify.authenticate);

  /** The task if the user may see it, else 404. */
  async function visibleTask(request: FastifyRequest, id: string): Promise<Task> {
    const task = await tasks.findVisible(existingId(id), actorOf(request));
    if (task === undefined) throw taskNotFound();
    return task;
  }

  /** The comment the author is changing: 404 when it is not on this task, 403 for anyone else. */
  async function ownComment(actor: Actor, taskId: string, commentId: string, ex: Executor): Promise<Comment> {
    const stored = await repo.findInTask(taskId, existingId(commentId, commentNotFound), ex);
    if (stored === undefined) throw commentNotFound();
    if (stored.authorId !== actor.userId) throw new AppError(403, 'FORBIDDEN', SERVER_MESSAGES.notCommentAuthor);
    return stored.comment;
  }

  const person = (actor: Actor) => ({ fullName: actor.fullName, email: actor.email });
  /** The answer to a new comment. */
  const commentAnswer = ({ comment, mailsHeld }: { comment: Comment; mailsHeld: number }) => ({
    status: 201,
    payload: { status: 'success', message: withMailNote(SERVER_MESSAGES.commentAdded, mailsHeld), data: { comment } },
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
    (request, reply) => answerOnce(request, reply, `POST /api/tasks/${request.params.id}/comments`, commentAnswer, async (once) => {
      const { body } = checkFields({ body: checkCommentBody(request.body.body) });
      const actor = actorOf(request);
      const now = clock.now().toISOString();
      return writes.comment(
        actor,
        existingId(request.params.id),
        async (task, ex) => {
          const { mentions, mentionsJson, mails, notifications } = await planMentions(mentionDeps, { author: actor, task, body, alreadyMentioned: [], at: now }, ex);
          const row = { id: newId(), taskId: task._id, authorId: actor.userId, authorName: actor.fullName, authorEmail: actor.email, body, mentions: mentionsJson, createdAt: now, updatedAt: now };
          const created: Comment = { _id: row.id, taskId: task._id, body, author: person(actor), createdAt: now, updatedAt: now, mentions };
          return {
            comment: { insert: row },
            activity: [{ id: newId(), taskId: task._id, type: 'commented', actorId: actor.userId, actorName: actor.fullName, actorEmail: actor.email, at: now, changes: null }],
            mails,
            // The mentioned are told `mentioned`; the task's creator and assignee otherwise `commented`.
            notifications: [...notifications, ...commentNotifications({ author: actor, task, mentions, at: now })],
            event: { type: 'comment.created', data: { taskId: task._id, comment: created, by: created.author } },
            result: { comment: created, mailsHeld: 0 },
            answer: (mailsHeld) => ({ comment: created, mailsHeld }),
          };
        },
        { ...optionsFor(body), once },
      );
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
      const now = clock.now().toISOString();
      const actor = actorOf(request);
      const written = await writes.comment(
        actor,
        existingId(request.params.id),
        async (task, ex) => {
          const current = await ownComment(actor, task._id, request.params.commentId, ex);
          if (current.body === body) return { result: { comment: current, mailsHeld: 0 } };
          // Mentions are read again from the new text; only the newly mentioned are told.
          const { mentions, mentionsJson, mails, notifications } = await planMentions(
            mentionDeps,
            { author: actor, task, body, alreadyMentioned: current.mentions, at: now },
            ex,
          );
          const updated: Comment = { ...current, body, updatedAt: now, mentions };
          return {
            comment: { update: { id: current._id, body, mentions: mentionsJson, updatedAt: now } },
            mails,
            notifications,
            event: { type: 'comment.updated', data: { taskId: task._id, comment: updated, by: person(actor) } },
            result: { comment: updated, mailsHeld: 0 },
            answer: (mailsHeld) => ({ comment: updated, mailsHeld }),
          };
        },
        optionsFor(body),
      );
      const message = withMailNote(SERVER_MESSAGES.commentUpdated, written.mailsHeld);
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
      const actor = actorOf(request);
      await writes.comment(actor, existingId(request.params.id), async (task, ex) => {
        const current = await ownComment(actor, task._id, request.params.commentId, ex);
        return {
          comment: { delete: { id: current._id } },
          event: { type: 'comment.deleted', data: { taskId: task._id, comment: { _id: current._id }, by: person(actor) } },
          result: undefined,
        };
      });
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

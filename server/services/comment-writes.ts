import fp from 'fastify-plugin';
import { mentionedAddresses } from '#shared/mentions.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Comment } from '#shared/schemas/comments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import { AppError } from '../errors.ts';
import type { EventType } from '../repositories/events-repository.ts';
import type { CommentWrite, WriteParts } from '../repositories/task-write-statements.ts';
import type { Actor } from './actor.ts';
import type { OnceOnly } from './idempotency.ts';
import { planMentions } from './mentions.ts';
import { existingId } from './not-found.ts';
import { commentNotifications } from './notifications.ts';
import { activityEntry } from './task-activity.ts';
import { sightOf } from './task-change.ts';

/** A comment as written, and how many of the mention mails it caused the sender's hourly cap held back. */
export interface CommentWritten {
  comment: Comment;
  mailsHeld: number;
}

export interface CommentWrites {
  /**
   * A new comment by `actor` on a task they can see (404 otherwise), with its `commented`
   * activity entry, its mentions (mails and `mentioned` notifications), `commented`
   * notifications to the task's creator and assignee, and a `comment.created` event. `once`: a
   * comment sent with an Idempotency-Key (claimed and answered in the write's transaction).
   */
  add(actor: Actor, taskId: string, body: string, once?: OnceOnly<CommentWritten>): Promise<CommentWritten>;
  /**
   * The author's new text for their comment (404 when it is not on the task, 403 for anyone
   * else): its mentions are read again, and only the newly mentioned are told. The same text
   * changes nothing.
   */
  edit(actor: Actor, taskId: string, commentId: string, body: string): Promise<CommentWritten>;
  /** Deletes the author's comment (404 when it is not on the task, 403 for anyone else). */
  remove(actor: Actor, taskId: string, commentId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    commentWrites: CommentWrites;
  }
}

const commentNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.commentNotFound);
const person = (actor: Actor) => ({ fullName: actor.fullName, email: actor.email });

/**
 * Comment writes, planned here and written by `taskWrites.change` (services/task-writes.ts) as
 * any task write is: the comment row, activity, mails, notifications and the `comment.*` event
 * are the parts of one write that locks the task row at the version read, so the event goes to
 * whoever can see the task (its board's active members and its assignee) as of the version that
 * commits. Anyone who can see the task may comment; only a comment's author changes it. A
 * comment that mentions anyone is planned inside the write's transaction, with the task row
 * locked from the first read, since who of the mentioned can see the task is read there.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.commentsRepository;
    const mentionDeps = { comments: repo, taskMail: fastify.taskMail };
    const writes = fastify.taskWrites;

    /** The comment the author is changing: 404 when it is not on this task, 403 for anyone else. */
    async function ownComment(actor: Actor, taskId: string, commentId: string, ex: Executor): Promise<Comment> {
      const stored = await repo.findInTask(taskId, existingId(commentId, commentNotFound), ex);
      if (stored === undefined) throw commentNotFound();
      if (stored.authorId !== actor.userId) throw new AppError(403, 'FORBIDDEN', SERVER_MESSAGES.notCommentAuthor);
      return stored.comment;
    }

    /** The parts of a comment write: the comment row, and an event of `type` to whoever sees the task. */
    const partsOf = (task: Task, comment: CommentWrite, type: EventType, data: Record<string, unknown>, at: string): WriteParts => ({
      comment,
      activity: [],
      mails: [],
      notifications: [],
      events: [{ type, subjectId: task._id, ...sightOf(task), data, at }],
    });
    /** A comment whose text mentions anyone is planned under the task row's lock (see above). */
    const mentionsAnyone = (body: string) => mentionedAddresses(body).length > 0;

    const service: CommentWrites = {
      add(actor, taskId, body, once) {
        const now = clock.now();
        const at = now.toISOString();
        return writes.change(actor, taskId, { rights: 'see', lockFirst: mentionsAnyone(body) || once !== undefined, once }, async ({ task }, ex) => {
          const { mentions, mentionsJson, mails, notifications } = await planMentions(mentionDeps, { author: actor, task, body, alreadyMentioned: [], at }, ex);
          const row = { id: newId(), taskId: task._id, authorId: actor.userId, authorName: actor.fullName, authorEmail: actor.email, body, mentions: mentionsJson, createdAt: at, updatedAt: at };
          const created: Comment = { _id: row.id, taskId: task._id, body, author: person(actor), createdAt: at, updatedAt: at, mentions };
          const parts = partsOf(task, { insert: row }, 'comment.created', { taskId: task._id, comment: created, by: created.author }, at);
          parts.activity.push(activityEntry(task._id, 'commented', actor, now));
          parts.mails.push(...mails);
          // The mentioned are told `mentioned`; the task's creator and assignee otherwise `commented`.
          parts.notifications.push(...notifications, ...commentNotifications({ author: actor, task, mentions, at }));
          return { target: { kind: 'lock', before: task }, parts, answer: ({ mailsHeld }) => ({ comment: created, mailsHeld }) };
        });
      },

      edit(actor, taskId, commentId, body) {
        const at = clock.now().toISOString();
        return writes.change(actor, taskId, { rights: 'see', lockFirst: mentionsAnyone(body) }, async ({ task }, ex) => {
          const current = await ownComment(actor, task._id, commentId, ex);
          if (current.body === body) return { answer: { comment: current, mailsHeld: 0 } };
          // Mentions are read again from the new text; only the newly mentioned are told.
          const { mentions, mentionsJson, mails, notifications } = await planMentions(
            mentionDeps,
            { author: actor, task, body, alreadyMentioned: current.mentions, at },
            ex,
          );
          const updated: Comment = { ...current, body, updatedAt: at, mentions };
          const change = { update: { id: current._id, body, mentions: mentionsJson, updatedAt: at } };
          const parts = partsOf(task, change, 'comment.updated', { taskId: task._id, comment: updated, by: person(actor) }, at);
          parts.mails.push(...mails);
          parts.notifications.push(...notifications);
          return { target: { kind: 'lock', before: task }, parts, answer: ({ mailsHeld }) => ({ comment: updated, mailsHeld }) };
        });
      },

      remove(actor, taskId, commentId) {
        return writes.change<undefined>(actor, taskId, { rights: 'see' }, async ({ task }, ex) => {
          const current = await ownComment(actor, task._id, commentId, ex);
          const at = clock.now().toISOString();
          const data = { taskId: task._id, comment: { _id: current._id }, by: person(actor) };
          return { target: { kind: 'lock', before: task }, parts: partsOf(task, { delete: { id: current._id } }, 'comment.deleted', data, at), answer: () => undefined };
        });
      },
    };
    fastify.decorate('commentWrites', service);
    done();
  },
  { name: 'comment-writes', dependencies: ['repositories', 'task-mail', 'task-writes'] },
);

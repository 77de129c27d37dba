import { mentionedAddresses } from '#shared/mentions.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Executor } from '../db/prepared.ts';
import type { TaskMail } from '../mail/task-mail.ts';
import type { CommentsRepository } from '../repositories/comments-repository.ts';
import type { PlannedNotification } from '../repositories/notifications-repository.ts';
import type { PlannedMail } from '../repositories/task-write-statements.ts';
import { plan } from './notifications.ts';
import type { Actor } from './actor.ts';

/** What a comment's mentions cause: the addresses stored with it, and the mails written with it. */
export interface MentionPlan {
  /** The mentioned addresses that see the task (Comment JSON `mentions`), as JSON text for `comments.mentions`. */
  mentions: string[];
  mentionsJson: string;
  mails: PlannedMail[];
  /** The `mentioned` notifications in the app, one per person told. */
  notifications: PlannedNotification[];
}

/**
 * The one place where a mention becomes known. A comment (new or edited) mentions the
 * `@address` tokens of its body (shared/mentions.ts); of those, only the addresses that see
 * the task now count (task-visibility.ts `seenBy`, read inside the comment's transaction):
 * they are stored with the comment and `told`. An address that does not see the task stays
 * plain text: nothing is stored, nothing is sent, and the answer is the same whether or not it
 * has an account, so a comment cannot be used to probe who exists or who sees what.
 *
 * `told`: the people to tell — every counted address except the author and except those
 * `alreadyMentioned` by the comment before an edit (an edit tells only the newly mentioned,
 * so fixing a typo does not mail everyone again). Each gets one `mentioned` mail unless they
 * turned mention mail off; the write counts these mails against the author's hourly cap.
 * Each also gets a `mentioned` notification in the app (written with the comment, at `at`).
 */
export async function planMentions(
  deps: { comments: CommentsRepository; taskMail: TaskMail },
  input: { author: Actor; task: Task; body: string; alreadyMentioned: readonly string[]; at: string },
  ex: Executor,
): Promise<MentionPlan> {
  const { author, task, body, alreadyMentioned, at } = input;
  const seeing = await deps.comments.mentionable(task._id, mentionedAddresses(body), ex);
  const mentions = seeing.map((target) => target.email);
  const before = new Set(alreadyMentioned);
  const told = seeing.filter((target) => target.email !== author.email && !before.has(target.email));
  const mails = told
    .filter((target) => target.notifyMentions)
    .map((target) => deps.taskMail.mentioned({ author, task, comment: body, to: target.email, hasAccount: target.hasAccount }));
  const notifications = plan({ type: 'mentioned', to: told.map((target) => target.email), by: author, task, at });
  return { mentions, mentionsJson: JSON.stringify(mentions), mails, notifications };
}

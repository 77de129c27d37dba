import fp from 'fastify-plugin';
import { newId } from '../db/ids.ts';
import { appendEvent, type EventTransaction } from '../repositories/events-repository.ts';
import type { DueReminderRow } from '../repositories/outbox-repository.ts';
import type { PlannedMail } from '../repositories/task-write-statements.ts';
import { plan } from '../services/notifications.ts';
import type { PlannedNotification } from '../repositories/notifications-repository.ts';
import type { WriteParts } from '../repositories/task-write-statements.ts';
import type { Actor } from '../services/actor.ts';
import type { TaskChange } from '../services/task-change.ts';
import type { OutboxMail } from '../outbox/outbox-mail.ts';
import { ENGLISH, reminderMail, writeMail, type MailTexts, type ReminderMailInput } from './templates.ts';
import { nextReminderFor, REMINDER_POLICY } from './reminder-schedule.ts';
import { unsubscribeFor, type MailKind } from './unsubscribe-tokens.ts';

export interface TaskMail {
  /**
   * Adds a task write's mail rows (services/task-writes.ts runs it for every write): the
   * assignment mail when the assignee is new and not the actor (the write leaves it out for an
   * address that turned it off, and past the sender's hourly cap), and the re-armed reminder
   * schedule when the deadline changed.
   */
  plan(change: Pick<TaskChange, 'before' | 'after' | 'actor'>, parts: WriteParts): void;
  /**
   * The one assignment mail of a change that assigned several tasks to `to` at once (kind
   * `assigned`, left out like the single one for an address that turned it off).
   */
  assignedMany(input: { actor: Actor; to: string; taskTitles: readonly string[] }): PlannedMail;
  /** The mail telling `to` that `author` mentioned them in `comment` on `task` (kind `mentioned`). */
  mentioned(input: { author: Actor; task: { _id: string; taskTitle: string }; comment: string; to: string; hasAccount: boolean }): PlannedMail;
  /**
   * Writes every due reminder to the outbox, and the `due_soon` / `overdue` notifications in the
   * app (to the assignee and the creator, whatever their mail settings), in the same
   * transaction; the number of tasks handled.
   */
  scanReminders(): Promise<number>;
  /**
   * Resolves once the scheduled scan of this instance (started when the app is ready, then
   * every `scanMs`) is not running. For tests that run a second instance in the same process on
   * the same SQLite file: its scan holds the file's write lock across awaits, and a write of the
   * other instance would wait for it synchronously, on the one thread the scan needs to finish.
   */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    taskMail: TaskMail;
  }
}

/**
 * The mail rules of the team board. Assignment: one mail to a new assignee who is not the
 * person making the change, linking the task for an address with an account and the sign-up
 * page (address prefilled) otherwise. Reminders: each open task keeps the time of its next
 * reminder in `tasks.next_reminder_at` (deadline − 24 h, then the deadline); a scan in every
 * instance, on the app's clock, writes "due soon" and "overdue" mails for the rows that are due
 * and moves their schedule on in the same transaction, so each goes out once per deadline. A
 * new deadline re-arms both. Optional mails honour the recipient's settings and carry a
 * one-click unsubscribe link and headers (RFC 8058). The scan also writes the matching in-app
 * notifications and their live events, so it runs in `events.transaction`.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const { config, outbox, outboxRepository: repo, mailSettingsRepository: settings } = fastify;
    const origin = config.appOrigin;

    const unsubscribe = (email: string, kind: MailKind) => unsubscribeFor(origin, config.sessionSecret, email, kind);
    /** The language a mail an actor causes is written in for an address without an account. */
    const languageOf = (actor: Actor) => (actor.language === undefined ? {} : { language: actor.language });

    /**
     * An assignment mail as a write plans it: the English copies for an address with an account
     * and without one (the write picks, and writes them only when it stores the mail), and what
     * it is made of (the sender writes it anew).
     */
    const assignment = (to: string, headers: Record<string, string>, texts: MailTexts): PlannedMail => ({
      id: newId(),
      kind: 'assigned',
      to,
      headers,
      content: (hasAccount) => writeMail(texts, ENGLISH, hasAccount),
      honoursAssignedOptOut: true,
      texts,
    });

    /** Where a mail about a task leads: the task, or sign-up for an address without an account. */
    const linkFor = (email: string, taskId: string, hasAccount: boolean) =>
      hasAccount ? `${origin}/tasks/${taskId}` : `${origin}/sign-up?email=${encodeURIComponent(email)}`;

    const armReminders = (trx: EventTransaction, taskId: string, deadline: string | null) => repo.setNextReminder(taskId, nextReminderFor(deadline), trx);

    /**
     * One batch of due tasks: the recipients' settings and accounts are read in one query each,
     * the mails written in a few multi-row inserts, and each task's schedule moved on.
     */
    const remindBatch = async (trx: EventTransaction, tasks: readonly DueReminderRow[], now: Date): Promise<{ mails: number; pushes: number }> => {
      const nowMs = now.getTime();
      const at = now.toISOString();
      const emails = [...new Set(tasks.flatMap((task) => [task.assigneeEmail, task.creatorEmail]))];
      const wanted = await settings.getMany(emails, trx);
      const accounts = await settings.withAccounts(emails, trx);
      const mails: OutboxMail[] = [];
      const notifications: PlannedNotification[] = [];
      for (const task of tasks) {
        const deadlineMs = task.deadline === null ? null : Date.parse(task.deadline);
        if (task.deadline === null || deadlineMs === null) {
          await repo.setNextReminder(task.id, null, trx);
          continue;
        }
        if (deadlineMs - REMINDER_POLICY.dueSoonMs > nowMs) {
          // Armed early (e.g. rows from before the schedule existed): wait for the real time.
          await armReminders(trx, task.id, task.deadline);
          continue;
        }
        const kind = deadlineMs <= nowMs ? 'overdue' : 'due-soon';
        const about = { _id: task.id, taskTitle: task.taskTitle };
        notifications.push(...plan({ type: kind === 'overdue' ? 'overdue' : 'due_soon', to: [task.assigneeEmail, task.creatorEmail], by: null, task: about, at }));
        const recipients =
          task.assigneeEmail === task.creatorEmail
            ? [{ email: task.assigneeEmail, role: 'both' as const }]
            : [
                { email: task.assigneeEmail, role: 'assignee' as const },
                { email: task.creatorEmail, role: 'creator' as const },
              ];
        for (const { email, role } of recipients) {
          if (wanted.get(email)?.notifyReminders === false) continue;
          const link = linkFor(email, task.id, accounts.has(email));
          const off = unsubscribe(email, 'reminders');
          const input: ReminderMailInput = { appOrigin: origin, kind, taskTitle: task.taskTitle, deadline: task.deadline, assigneeEmail: task.assigneeEmail, link, role, unsubscribeUrl: off.url };
          mails.push({
            ...reminderMail(input),
            kind,
            to: email,
            headers: off.headers,
            dedupeKey: `${kind}:${task.id}:${task.deadline}:${email}`,
            texts: { template: 'reminder', input },
          });
        }
        await repo.setNextReminder(task.id, kind === 'overdue' ? null : task.deadline, trx);
      }
      await outbox.enqueueMany(trx, mails);
      const notes = await fastify.notificationsRepository.store(notifications, trx);
      // The events last (events-repository.ts appendEvent).
      for (const event of notes.events) await appendEvent(trx, event);
      return { mails: mails.length, pushes: notes.pushes };
    };

    const taskMail: Omit<TaskMail, 'idle'> = {
      plan({ before, after, actor }, parts) {
        if (after === undefined) return;
        if (before?.assignee !== after.assignee && after.assignee !== actor.email) {
          const to = after.assignee;
          const off = unsubscribe(to, 'assigned');
          const input = {
            appOrigin: origin,
            assignorName: actor.fullName,
            taskTitle: after.taskTitle,
            workTitle: after.workTitle,
            priority: after.priority,
            deadline: after.deadline,
            link: linkFor(to, after._id, true),
            hasAccount: true,
            unsubscribeUrl: off.url,
          };
          // Whether the address has an account and wants this mail is read by the write itself.
          parts.mails.push(assignment(to, off.headers, { template: 'assigned', input, signUpLink: linkFor(to, after._id, false), ...languageOf(actor) }));
        }
        if (before === undefined ? after.deadline !== null : before.deadline !== after.deadline) {
          parts.nextReminderAt = nextReminderFor(after.deadline);
        }
      },

      assignedMany({ actor, to, taskTitles }) {
        const off = unsubscribe(to, 'assigned');
        const input = { appOrigin: origin, assignorName: actor.fullName, taskTitles, link: `${origin}/`, hasAccount: true, unsubscribeUrl: off.url };
        return assignment(to, off.headers, { template: 'assigned-many', input, signUpLink: `${origin}/sign-up?email=${encodeURIComponent(to)}`, ...languageOf(actor) });
      },

      mentioned({ author, task, comment, to, hasAccount }) {
        const off = unsubscribe(to, 'mentions');
        const input = { appOrigin: origin, authorName: author.fullName, taskTitle: task.taskTitle, comment, link: linkFor(to, task._id, true), hasAccount: true, unsubscribeUrl: off.url };
        const texts: MailTexts = { template: 'mentioned', input, signUpLink: linkFor(to, task._id, false), ...languageOf(author) };
        // The caller read the account and the setting in the write's transaction already.
        const content = writeMail(texts, ENGLISH, hasAccount);
        return {
          id: newId(),
          kind: 'mentioned',
          to,
          headers: off.headers,
          content: () => content,
          honoursAssignedOptOut: false,
          texts,
        };
      },

      async scanReminders() {
        let handled = 0;
        for (;;) {
          const now = clock.now();
          const { count, sent } = await fastify.events.transaction(async (trx) => {
            const due = await repo.dueReminders(now.toISOString(), REMINDER_POLICY.batchSize, trx);
            const written = await remindBatch(trx, due, now);
            return { count: due.length, sent: written.mails + written.pushes };
          });
          handled += count;
          if (sent > 0) outbox.wake();
          if (count < REMINDER_POLICY.batchSize) return handled;
        }
      },
    };
    let timer: NodeJS.Timeout | undefined;
    let scanning: Promise<unknown> | null = null;
    fastify.decorate('taskMail', {
      ...taskMail,
      async idle() {
        while (scanning !== null) await scanning;
      },
    });

    const scan = () => {
      if (scanning !== null) return;
      scanning = taskMail
        .scanReminders()
        .catch((error: unknown) => {
          fastify.log.warn({ err: error }, 'Reminder scan failed; the next one tries again');
        })
        .finally(() => {
          scanning = null;
        });
    };
    fastify.addHook('onReady', (next) => {
      scan();
      timer = setInterval(scan, REMINDER_POLICY.scanMs);
      timer.unref();
      next();
    });
    fastify.addHook('preClose', async () => {
      clearInterval(timer);
      if (scanning !== null) await scanning;
    });
    done();
  },
  { name: 'task-mail', dependencies: ['config', 'repositories', 'outbox', 'events'] },
);

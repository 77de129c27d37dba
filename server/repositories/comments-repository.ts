import { sql, type Insertable, type Kysely } from 'kysely';
import type { Comment, Person } from '#shared/schemas/comments.ts';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { CommentsTable, DB } from '../db/schema.ts';
import { accountsSeeing, seenBy, visibleTo, type Viewer } from './task-visibility.ts';

export type NewComment = Omit<Insertable<CommentsTable>, 'seq'>;

interface CommentRow {
  id: string;
  taskId: string;
  body: string;
  authorId: string | null;
  authorName: string;
  authorEmail: string;
  createdAt: string;
  updatedAt: string;
  mentions: string;
}

/** A mentioned address that sees the task: whether it has an account and wants mention mails. */
export interface MentionTarget {
  email: string;
  hasAccount: boolean;
  notifyMentions: boolean;
}

/** A comment with the author's user id (for the author-only rule), and its API shape. */
export interface StoredComment {
  authorId: string | null;
  comment: Comment;
}

function toComment(row: CommentRow): StoredComment {
  return {
    authorId: row.authorId,
    comment: {
      _id: row.id,
      taskId: row.taskId,
      body: row.body,
      author: { fullName: row.authorName, email: row.authorEmail },
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      mentions: JSON.parse(row.mentions) as string[],
    },
  };
}

/**
 * Comments of a task, oldest first (insertion order). The author's current name and e-mail are
 * read from `users`; the copies on the row speak for a deleted account.
 */
export function createCommentsRepository(db: Kysely<DB>) {
  const base = db
    .selectFrom('comments as c')
    .leftJoin('users as u', 'u.id', 'c.authorId')
    .select((eb) => [
      'c.id',
      'c.taskId',
      'c.body',
      'c.authorId',
      eb.fn.coalesce('u.fullName', 'c.authorName').as('authorName'),
      eb.fn.coalesce('u.email', 'c.authorEmail').as('authorEmail'),
      'c.createdAt',
      'c.updatedAt',
      'c.mentions',
    ]);
  const listForTask = prepare<{ taskId: string }, CommentRow>(base.where('c.taskId', '=', slot('taskId')).orderBy('c.seq'));
  const findInTask = prepare<{ taskId: string; id: string }, CommentRow>(
    base.where('c.taskId', '=', slot('taskId')).where('c.id', '=', slot('id')),
  );

  // Everyone with an account who sees the task, by name, if the viewer sees it too (else no
  // row: whoever sees a task is among those who see it, so an empty answer means 404). The
  // task is read once (`seen`); its accounts are found through the board's members and the
  // assignee's address, then read by primary key.
  const people = prepare<{ id: string; userId: string; email: string }, Person>(
    db
      .with('seen', (qb) => qb.selectFrom('tasks as t').select(['t.boardId', 't.assigneeEmail']).where('t.id', '=', slot('id')).where(visibleTo('t')))
      .selectFrom('users as u')
      .select(['u.fullName', 'u.email'])
      .where(sql<boolean>`u.id in ${accountsSeeing(sql`seen t`, 't')}`)
      .orderBy(sql`lower(u.full_name)`)
      .orderBy('u.email'),
  );

  return {
    /**
     * Which of `emails` see task `taskId` now (task-visibility.ts `seenBy`), with whether each has
     * an account and wants mention mails; in the order given. One query, run inside the comment
     * write's transaction so it agrees with what commits.
     */
    async mentionable(taskId: string, emails: readonly string[], ex: Executor = db): Promise<MentionTarget[]> {
      if (emails.length === 0) return [];
      const given = sql.join(
        emails.map((email, i) => sql`select cast(${email} as text) as email, cast(${i} as integer) as n`),
        sql` union all `,
      );
      const { rows } = await sql<{ email: string; hasAccount: number; notifyMentions: number }>`
        select a.email,
          case when exists (select 1 from users u where u.email = a.email) then 1 else 0 end as has_account,
          coalesce((select s.notify_mentions from mail_settings s where s.email = a.email), 1) as notify_mentions
        from tasks t cross join (${given}) a
        where t.id = ${taskId} and ${seenBy(sql.ref('a.email'), 't')}
        order by a.n`.execute(ex);
      return rows.map((row) => ({ email: row.email, hasAccount: row.hasAccount === 1, notifyMentions: row.notifyMentions === 1 }));
    },

    /** Everyone with an account who sees the task, by name; undefined when the viewer does not see it. */
    async people(taskId: string, viewer: Viewer, ex: Executor = db): Promise<Person[] | undefined> {
      const { rows } = await people.execute(ex, { id: taskId, userId: viewer.userId, email: viewer.email });
      return rows.length === 0 ? undefined : rows;
    },

    async listForTask(taskId: string, ex: Executor = db): Promise<Comment[]> {
      const { rows } = await listForTask.execute(ex, { taskId });
      return rows.map((row) => toComment(row).comment);
    },

    async findInTask(taskId: string, id: string, ex: Executor = db): Promise<StoredComment | undefined> {
      const { rows } = await findInTask.execute(ex, { taskId, id });
      const row = rows[0];
      return row === undefined ? undefined : toComment(row);
    },

    async insert(comment: NewComment, ex: Executor = db): Promise<void> {
      await ex.insertInto('comments').values(comment).execute();
    },

    async delete(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('comments').where('id', '=', id).execute();
    },
  };
}

export type CommentsRepository = ReturnType<typeof createCommentsRepository>;

import type { Insertable, Kysely } from 'kysely';
import type { Comment } from '#shared/schemas/comments.ts';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { CommentsTable, DB } from '../db/schema.ts';

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

  return {
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

    async updateBody(id: string, body: string, updatedAt: string, ex: Executor = db): Promise<void> {
      await ex.updateTable('comments').set({ body, updatedAt }).where('id', '=', id).execute();
    },

    async delete(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('comments').where('id', '=', id).execute();
    },
  };
}

export type CommentsRepository = ReturnType<typeof createCommentsRepository>;

import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { attachmentUrl, thumbnailUrl, type Attachment } from '#shared/schemas/attachments.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { AttachmentsTable, DB } from '../db/schema.ts';
import { visibleTo, type Viewer } from './task-visibility.ts';

export type NewAttachment = Insertable<AttachmentsTable>;

/** A row as read: the uploader's name and address are their current ones when the account exists. */
type AttachmentRow = Selectable<AttachmentsTable>;

/** An attachment with what only the server needs: where its bytes are and who uploaded it. */
export interface StoredAttachment {
  attachment: Attachment;
  taskId: string;
  storageKey: string;
  thumbnailKey: string | null;
  uploaderId: string | null;
}

/** An attachment row as its API JSON (width, height and thumbnail only for an image that has one). */
export function toAttachmentJson(row: Omit<AttachmentRow, 'taskId' | 'storageKey' | 'uploaderId'>): Attachment {
  const { width, height } = row;
  const image = row.thumbnailKey !== null && width !== null && height !== null;
  return {
    _id: row.id,
    name: row.name,
    size: row.size,
    type: row.type,
    ...(image ? { width, height, thumbnailUrl: thumbnailUrl(row.id) } : {}),
    url: attachmentUrl(row.id),
    by: { fullName: row.uploaderName, email: row.uploaderEmail },
    createdAt: row.createdAt,
  };
}

const stored = (row: AttachmentRow): StoredAttachment => ({
  attachment: toAttachmentJson(row),
  taskId: row.taskId,
  storageKey: row.storageKey,
  thumbnailKey: row.thumbnailKey,
  uploaderId: row.uploaderId,
});

/**
 * Attachment rows, and the two reads an upload's transaction makes: the board's total, and its
 * lock. The uploader's current name and address are read from `users`; the copies on the row
 * speak for a deleted account.
 */
export function createAttachmentsRepository(db: Kysely<DB>, dialect: Dialect) {
  const base = db
    .selectFrom('attachments as a')
    .leftJoin('users as u', 'u.id', 'a.uploaderId')
    .select((eb) => [
      'a.id',
      'a.taskId',
      'a.name',
      'a.size',
      'a.type',
      'a.width',
      'a.height',
      'a.storageKey',
      'a.thumbnailKey',
      'a.uploaderId',
      eb.fn.coalesce('u.fullName', 'a.uploaderName').as('uploaderName'),
      eb.fn.coalesce('u.email', 'a.uploaderEmail').as('uploaderEmail'),
      'a.createdAt',
    ]);
  const listForTask = prepare<{ taskId: string }, AttachmentRow>(base.where('a.taskId', '=', slot('taskId')).orderBy('a.createdAt', 'desc').orderBy('a.id', 'desc'));
  const findInTask = prepare<{ taskId: string; id: string }, AttachmentRow>(base.where('a.taskId', '=', slot('taskId')).where('a.id', '=', slot('id')));
  // The file of an attachment whose task the viewer sees (else no row: 404 either way).
  const findVisible = prepare<{ id: string; userId: string; email: string }, AttachmentRow>(
    base.innerJoin('tasks as t', 't.id', 'a.taskId').where('a.id', '=', slot('id')).where(visibleTo('t')),
  );
  // Whether `size` more bytes keep the board within `quota` (compared in SQL: the total may pass
  // a 32-bit integer, which PostgreSQL's sum answers as a bigint, as text).
  const fits = prepare<{ boardId: string; size: number; quota: number }, { fits: number }>(
    db
      .selectFrom('attachments as a')
      .innerJoin('tasks as t', 't.id', 'a.taskId')
      .where('t.boardId', '=', slot('boardId'))
      .select(sql<number>`case when coalesce(sum(a.size), 0) + ${slot('size')} <= ${slot('quota')} then 1 else 0 end`.as('fits')),
  );

  return {
    /** A task's attachments, newest first. */
    async listForTask(taskId: string, ex: Executor = db): Promise<Attachment[]> {
      const { rows } = await listForTask.execute(ex, { taskId });
      return rows.map(toAttachmentJson);
    },

    async findInTask(taskId: string, id: string, ex: Executor = db): Promise<StoredAttachment | undefined> {
      const { rows } = await findInTask.execute(ex, { taskId, id });
      return rows[0] === undefined ? undefined : stored(rows[0]);
    },

    /** The attachment if `viewer` sees its task; undefined otherwise (and when there is none). */
    async findVisible(id: string, viewer: Viewer): Promise<StoredAttachment | undefined> {
      const { rows } = await findVisible.execute(db, { id, userId: viewer.userId, email: viewer.email });
      return rows[0] === undefined ? undefined : stored(rows[0]);
    },

    /**
     * Holds the board's row until the transaction ends (PostgreSQL; SQLite has one writer at a
     * time), so two uploads to one board, from any instances, check its total one after the other.
     * `no key update`: task writes, which only share-lock the board's key, are not held up.
     */
    async lockBoard(boardId: string, ex: Executor): Promise<void> {
      if (dialect === 'postgres') await sql`select id from boards where id = ${boardId} for no key update`.execute(ex);
    },

    /** Whether `size` more bytes keep the board's attachments within `quota` bytes. */
    async fitsBoard(boardId: string, size: number, quota: number, ex: Executor): Promise<boolean> {
      const { rows } = await fits.execute(ex, { boardId, size, quota });
      return (rows[0]?.fits ?? 1) === 1;
    },

    async insert(row: NewAttachment, ex: Executor): Promise<void> {
      await ex.insertInto('attachments').values(row).execute();
    },

    /** Deletes the row; its files are swept by the table's trigger (migration 0024). */
    async delete(id: string, ex: Executor): Promise<void> {
      await ex.deleteFrom('attachments').where('id', '=', id).execute();
    },

    /** Files about to be stored: swept at `dueAt` unless `keep` comes first (a crash between the file and its row). */
    async sweepLater(keys: readonly string[], dueAt: string, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('fileSweeps')
        .values(keys.map((storageKey) => ({ storageKey, dueAt })))
        .onConflict((oc) => oc.column('storageKey').doUpdateSet({ dueAt }))
        .execute();
    },

    /** The files are an attachment's now: no sweep. */
    async keep(keys: readonly string[], ex: Executor = db): Promise<void> {
      await ex.deleteFrom('fileSweeps').where('storageKey', 'in', keys).execute();
    },
  };
}

export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;

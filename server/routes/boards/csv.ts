import { Readable, pipeline } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stringify } from 'csv-stringify';
import { Type } from 'typebox';
import { CSV_MESSAGES } from '#shared/csv-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { canImportTasks } from '#shared/rights.ts';
import { BoardParams } from '#shared/schemas/boards.ts';
import { CSV_COLUMNS, CsvImportEnvelope } from '#shared/schemas/integrations.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { AppError } from '../../errors.ts';
import type { SortPosition } from '../../repositories/task-order.ts';
import type { Viewer } from '../../repositories/task-visibility.ts';
import { boardNotFound } from '../../services/boards.ts';
import { importRows, parseImport } from '../../services/csv-import.ts';
import { actorOf } from '../../services/actor.ts';
import { existingId } from '../../services/not-found.ts';
import { withDistinctKeys } from '../../services/task-places.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

/** Tasks read per page while an export streams. */
const EXPORT_PAGE = 500;
/** The largest CSV file an import takes (this route only; every other keeps the app's body limit). */
export const CSV_IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** A task as one CSV record, in CSV_COLUMNS' order; `columnName`: its column's name. */
const recordOf = (task: Task, columnName: string) => [
  task.taskTitle,
  task.workTitle,
  task.assignee,
  task.deadline ?? '',
  task.priority,
  task.status,
  task.description,
  task.labels.map((label) => label.name).join(';'),
  columnName,
  task.startAt ?? '',
];

/** The file name an export is saved under: the board's name in safe characters. */
const fileNameOf = (name: string) => `${name.replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-').slice(0, 60) || 'board'}.csv`;

/**
 * A board's tasks as CSV (RFC 4180 by csv-stringify) and back. The export streams: it reads the
 * board's tasks a page at a time (the task list's keyset pages, newest first) and writes each
 * page before reading the next, so a board of any size is never held in memory. The import
 * (services/csv-import.ts) checks every row first and then writes all of them in one transaction.
 */
const csv: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock, tasksRepository: tasks, boardsRepository: boards } = fastify;
  fastify.addHook('onRequest', fastify.authenticate);

  /** The board's tasks, newest first, a page at a time. */
  async function* records(viewer: Viewer, boardId: string) {
    const names = new Map((await fastify.columnsRepository.ofBoard(boardId)).map((c) => [c.id, c.name]));
    for (let after: SortPosition | undefined; ; ) {
      const page = await tasks.list(viewer, { view: 'all', board: boardId, sort: 'newest', after, limit: EXPORT_PAGE });
      for (const task of page) yield recordOf(task, names.get(task.columnId) ?? '');
      const last = page.at(-1);
      if (page.length < EXPORT_PAGE || last === undefined) return;
      after = { createdAt: last.createdAt, id: last._id };
    }
  }

  fastify.get(
    '/boards/:id/export.csv',
    {
      schema: {
        tags: ['boards'],
        summary: "A board's tasks as CSV (any member)",
        description:
          `text/csv with a header row \`${CSV_COLUMNS.join(',')}\`, RFC 4180 quoting, labels joined by \`;\`, deadlines and starts (\`startAt\`) as ISO 8601 UTC, column by its name, ` +
          'newest task first. Anyone who is not an active member of the board gets 404, as for a board that does not exist.',
        security: sessionSecurity,
        params: BoardParams,
        response: { 200: Type.Unknown({ description: 'A CSV file (Content-Disposition: attachment).' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = actorOf(request);
      const boardId = existingId(request.params.id, boardNotFound);
      const board = await boards.membershipOf(boardId, viewer.userId);
      if (board === undefined) throw boardNotFound();
      // CRLF between records (RFC 4180); a field with any line break is quoted, a bare LF too.
      const out = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', quoted_match: /[\r\n]/ });
      // A failed page read ends the answer early (the client sees a cut file), and is logged.
      pipeline(Readable.from(records(viewer, boardId)), out, (error) => {
        if (error) request.log.error({ err: error }, 'CSV export failed');
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileNameOf(board.name)}"`)
        .header('cache-control', 'no-store')
        .send(out);
    },
  );

  // The import's body is CSV: a parser for text/csv in this scope only (a type a cross-site form
  // cannot send, so the CSRF rule that bodies are JSON still holds for forms).
  fastify.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: CSV_IMPORT_MAX_BYTES }, (_request, body, done) => {
    done(null, body);
  });

  fastify.post(
    '/boards/:id/import.csv',
    {
      bodyLimit: CSV_IMPORT_MAX_BYTES,
      schema: {
        tags: ['boards'],
        summary: 'Add tasks to a board from a CSV file (admin or member)',
        description:
          `Content-Type text/csv (415 otherwise), at most 20 MB (413). A header row names the columns, in any order, of ${CSV_COLUMNS.join(', ')}; ` +
          'taskTitle and assignee are required, an unknown or repeated column is a 400. Every row is checked by the rules of `POST /api/tasks`; ' +
          'any bad row answers 400 VALIDATION_FAILED listing each as `errors: [{field: "row 3: deadline", message}]` (the header is row 1) and nothing is imported. ' +
          'Labels are by name: the board\'s own are reused (ignoring case), missing ones are created (gray), within 100 per board and 10 per task. ' +
          '`column` names the task\'s column (ignoring case): a missing one is created as a `todo` column after the last, within 20 per board ' +
          '(else 400 naming the row, nothing imported); the column decides the status; without it, the first column of the row\'s status. ' +
          'Each column\'s rows go to its top, the file\'s first row topmost. ' +
          'The tasks are created by the caller, the file\'s first row as the newest; the board\'s active members get one `board.updated`. ' +
          '404 for a board I am not on, 403 for a viewer.',
        security: sessionSecurity,
        params: BoardParams,
        response: { 201: serializable(CsvImportEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const type = request.headers['content-type'] ?? '';
      if (typeof request.body !== 'string' || !/^text\/csv\s*(;|$)/i.test(type)) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', CSV_MESSAGES.notCsvType);
      const actor = actorOf(request);
      const boardId = existingId(request.params.id, boardNotFound);
      // Who may import is checked before the file is read, so a non-member learns nothing from its errors.
      const role = await tasks.boardRole(boardId, actor);
      if (role === undefined) throw boardNotFound();
      if (!canImportTasks(role)) throw new AppError(403, 'FORBIDDEN', SERVER_MESSAGES.viewerCannotChangeTasks);
      const now = clock.now();
      const rows = parseImport(request.body, now);
      const deps = { events: fastify.events, boards, labels: fastify.labelsRepository, activity: fastify.activityRepository, imports: fastify.taskImportRepository };
      // A column whose top key the key library cannot read is re-spaced first (decision 130).
      const counts = await withDistinctKeys(
        () => importRows(deps, actor, boardId, rows, now),
        (columnId) => fastify.taskWrites.respace(actor, columnId),
      );
      return reply.code(201).send({ status: 'success', message: translateFor(request, CSV_MESSAGES.imported(counts.tasks)), data: { counts } });
    },
  );
  return Promise.resolve();
};

export default csv;

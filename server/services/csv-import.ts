import { CsvError, parse } from 'csv-parse/sync';
import { LIMITS, PRIORITIES, STATUSES, type Priority, type TaskStatus } from '#shared/constants.ts';
import { CSV_MESSAGES } from '#shared/csv-messages.ts';
import { CSV_COLUMNS, type CsvColumn } from '#shared/schemas/integrations.ts';
import { checkDeadline, checkDescription, checkEmail, checkLabelName, checkStartAt, checkStartBeforeDeadline, checkTaskTitle, checkWorkTitle, type Checked } from '#shared/validation.ts';
import type { FastifyInstance } from 'fastify';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { canImportTasks } from '#shared/rights.ts';
import { newId } from '../db/ids.ts';
import { AppError, validationFailed, type FieldError } from '../errors.ts';
import { nextReminderFor } from '../mail/reminder-schedule.ts';
import type { ActivityRepository, NewActivity } from '../repositories/activity-repository.ts';
import type { BoardsRepository } from '../repositories/boards-repository.ts';
import { nameKeyOf, type LabelsRepository } from '../repositories/labels-repository.ts';
import type { PlacedImportedTask, TaskImportRepository } from '../repositories/task-import-repository.ts';
import { columnsOfBoard, firstOf, type StoredColumn } from '../repositories/columns-repository.ts';
import { checkColumnName, COLUMN_POLICY } from '#shared/column-messages.ts';
import { keyBetween, keysBetween } from './order-keys.ts';
import { appendAll, boardEvents } from './board-events.ts';
import { boardNotFound } from './boards.ts';
import { activityEntry } from './task-activity.ts';
import type { Actor } from './actor.ts';
import { existingId } from './not-found.ts';
import type { Translatable } from '#shared/i18n.ts';

/** Errors listed in one answer at most; past that, one more entry says how many were left out. */
export const MAX_LISTED_ERRORS = 1000;
/** The columns every file must have. */
const REQUIRED: readonly CsvColumn[] = ['taskTitle', 'assignee'];

/** One row of an import, checked by the rules of `POST /api/tasks` (shared/validation.ts). */
export interface ImportRow {
  taskTitle: string;
  workTitle: string;
  assignee: string;
  deadline: string | null;
  startAt: string | null;
  priority: Priority;
  status: TaskStatus;
  description: string;
  /** Label names as written (trimmed), none twice ignoring case. */
  labels: string[];
  /** The column's name (trimmed), or null: the first column of its status. */
  column: string | null;
}

/** An error of row `row` (the header is row 1, as a spreadsheet numbers the records) in `column`. */
const rowError = (row: number, column: string, message: Translatable): FieldError => ({ field: `row ${row}: ${column}`, message });

const pick = <T extends string>(values: readonly T[], raw: string, fallback: T): T | undefined => {
  const text = raw.trim();
  if (text === '') return fallback;
  return values.find((value) => value === text);
};

/** The labels cell: names separated by `;`, trimmed, empty ones dropped, a repeat (ignoring case) dropped. */
function labelsOf(raw: string): Checked<string[]> {
  const names = new Map<string, string>();
  for (const part of raw.split(';')) {
    if (part.trim() === '') continue;
    const checked = checkLabelName(part);
    if (!checked.ok) return checked;
    if (!names.has(nameKeyOf(checked.value))) names.set(nameKeyOf(checked.value), checked.value);
  }
  if (names.size > LIMITS.labelsPerTask) return { ok: false, message: CSV_MESSAGES.tooManyLabelsOnTask };
  return { ok: true, value: [...names.values()] };
}

/**
 * Parses and checks a CSV import (RFC 4180 by csv-parse: quoted fields, doubled quotes, line
 * breaks inside quotes, a UTF-8 BOM, CRLF or LF). The header names the columns, in any order;
 * only taskTitle and assignee are required, an unknown or repeated column fails the whole file.
 * Every row is checked by the same rules as `POST /api/tasks` with `now`; the answer is every
 * row, or a 400 VALIDATION_FAILED listing each bad row and field as `row N: column` (FieldError).
 */
export function parseImport(text: string, now: Date): ImportRow[] {
  let records: string[][];
  try {
    const parsed: string[][] = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true });
    records = parsed;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const row = (error as CsvError & { records?: number }).records;
    throw validationFailed([{ field: row === undefined ? 'file' : `row ${row + 1}`, message: CSV_MESSAGES.notCsv(error.message) }]);
  }
  const [header, ...body] = records;
  if (header === undefined) throw validationFailed([{ field: 'header', message: CSV_MESSAGES.empty }]);
  const headerErrors: FieldError[] = [];
  const columns = header.map((raw) => raw.trim());
  columns.forEach((name, i) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) headerErrors.push({ field: 'header', message: CSV_MESSAGES.unknownColumn(name) });
    else if (columns.indexOf(name) !== i) headerErrors.push({ field: 'header', message: CSV_MESSAGES.repeatedColumn(name) });
  });
  for (const name of REQUIRED) if (!columns.includes(name)) headerErrors.push({ field: 'header', message: CSV_MESSAGES.missingColumn(name) });
  if (headerErrors.length > 0) throw validationFailed(headerErrors);
  if (body.length === 0) throw validationFailed([{ field: 'file', message: CSV_MESSAGES.noRows }]);

  const at = new Map(columns.map((name, i) => [name as CsvColumn, i]));
  const errors: FieldError[] = [];
  const rows: ImportRow[] = [];
  body.forEach((record, index) => {
    const row = index + 2;
    if (record.length !== columns.length) {
      errors.push(rowError(row, 'row', CSV_MESSAGES.wrongCount(columns.length, record.length)));
      return;
    }
    const cell = (name: CsvColumn) => {
      const i = at.get(name);
      return i === undefined ? '' : (record[i] ?? '');
    };
    const checks = {
      taskTitle: checkTaskTitle(cell('taskTitle')),
      workTitle: checkWorkTitle(cell('workTitle')),
      assignee: checkEmail(cell('assignee')),
      deadline: checkDeadline(cell('deadline'), now),
      startAt: checkStartAt(cell('startAt')),
      description: checkDescription(cell('description')),
      labels: labelsOf(cell('labels')),
      column: cell('column').trim() === '' ? ({ ok: true, value: null } as const) : checkColumnName(cell('column')),
    };
    const priority = pick(PRIORITIES, cell('priority'), 'normal');
    const status = pick(STATUSES, cell('status'), 'todo');
    let bad = false;
    for (const [column, checked] of Object.entries(checks)) {
      if (!checked.ok) {
        errors.push(rowError(row, column, checked.message));
        bad = true;
      }
    }
    if (priority === undefined) errors.push(rowError(row, 'priority', CSV_MESSAGES.priority));
    if (status === undefined) errors.push(rowError(row, 'status', CSV_MESSAGES.status));
    const { taskTitle, workTitle, assignee, deadline, startAt, description, labels, column } = checks;
    if (bad || priority === undefined || status === undefined || !taskTitle.ok || !workTitle.ok || !assignee.ok || !deadline.ok || !startAt.ok || !description.ok || !labels.ok || !column.ok) return;
    const start = startAt.value?.toISOString() ?? null;
    const order = checkStartBeforeDeadline(start, deadline.value?.toISOString() ?? null, 'startAt');
    if (!order.ok) {
      errors.push(rowError(row, 'startAt', order.message));
      return;
    }
    rows.push({
      taskTitle: taskTitle.value,
      workTitle: workTitle.value,
      assignee: assignee.value,
      deadline: deadline.value?.toISOString() ?? null,
      startAt: start,
      priority,
      status,
      description: description.value,
      labels: labels.value,
      column: column.value,
    });
  });
  if (errors.length > MAX_LISTED_ERRORS) {
    const listed = errors.slice(0, MAX_LISTED_ERRORS);
    listed.push({ field: 'file', message: CSV_MESSAGES.moreErrors(errors.length - MAX_LISTED_ERRORS) });
    throw validationFailed(listed);
  }
  if (errors.length > 0) throw validationFailed(errors);
  return rows;
}

/** What an import needs of the app. */
export interface ImportDeps {
  events: FastifyInstance['events'];
  boards: BoardsRepository;
  labels: LabelsRepository;
  activity: ActivityRepository;
  imports: TaskImportRepository;
}

/**
 * Writes the checked rows onto the board as `actor`, all or nothing, in one transaction: the
 * board row locked first (PostgreSQL) as label changes lock it, so the 100-label limit holds
 * against a label created meanwhile; the labels named that the board lacks are created (gray),
 * existing ones reused by name ignoring case; the tasks inserted in bulk with a `created`
 * activity entry each and their reminder schedule; then one `board.updated` to the board's
 * active members, whose open boards refetch (decision 090: a bulk write instead of one task
 * write per row; no assignment mail and no per-task events). 404 for a non-member, 403 for a viewer.
 */
export async function importRows(deps: ImportDeps, actor: Actor, boardId: string, rows: readonly ImportRow[], now: Date): Promise<{ tasks: number; labels: number }> {
  const at = now.toISOString();
  return deps.events.transaction(async (trx) => {
    const membership = await deps.boards.membershipOf(existingId(boardId, boardNotFound), actor.userId, trx, true);
    if (membership === undefined) throw boardNotFound();
    if (!canImportTasks(membership.role)) throw new AppError(403, 'FORBIDDEN', SERVER_MESSAGES.viewerCannotChangeTasks);

    const labelIds = await deps.imports.labelKeys(boardId, trx);
    const missing = new Map<string, string>();
    for (const row of rows) {
      for (const name of row.labels) if (!labelIds.has(nameKeyOf(name)) && !missing.has(nameKeyOf(name))) missing.set(nameKeyOf(name), name);
    }
    if (labelIds.size + missing.size > LIMITS.labelsPerBoard) throw validationFailed([{ field: 'labels', message: CSV_MESSAGES.tooManyLabelsOnBoard }]);
    for (const [key, name] of missing) {
      const id = newId();
      await deps.labels.insert({ id, boardId, name, color: 'gray', at }, trx);
      labelIds.set(key, id);
    }

    // Columns: a row's named column (by name, ignoring case), created as `todo` after the last
    // one when the board lacks it (at most COLUMN_POLICY.maxPerBoard in all); a row without one
    // goes to the first column of its status. The column decides the status.
    const columns = await columnsOfBoard(trx, boardId);
    const byName = new Map(columns.map((c) => [c.name.toLowerCase(), c]));
    let last = columns.at(-1)?.position ?? null;
    for (const [i, row] of rows.entries()) {
      if (row.column === null || byName.has(row.column.toLowerCase())) continue;
      if (byName.size >= COLUMN_POLICY.maxPerBoard) throw validationFailed([{ field: `row ${i + 2}: column`, message: CSV_MESSAGES.tooManyColumns(COLUMN_POLICY.maxPerBoard) }]);
      const column = { id: newId(), boardId, name: row.column, category: 'todo' as const, wipLimit: null, position: keyBetween(last, null) };
      await trx.insertInto('boardColumns').values(column).execute();
      last = column.position;
      byName.set(row.column.toLowerCase(), { ...column, top: null });
    }
    const columnOf = rows.map((row) => (row.column === null ? firstOf(columns, row.status) : byName.get(row.column.toLowerCase()) ?? firstOf(columns, row.status)));
    // Each column's rows at its top, in the file's order (its first row topmost).
    const wanted = new Map<StoredColumn, number>();
    for (const column of columnOf) wanted.set(column, (wanted.get(column) ?? 0) + 1);
    const keys = new Map([...wanted].map(([column, n]) => [column, keysBetween(null, column.top, n, column.id)]));

    const tasks: PlacedImportedTask[] = [];
    const links: { taskId: string; labelId: string }[] = [];
    const activity: NewActivity[] = [];
    rows.forEach((row, i) => {
      const id = newId();
      const column = columnOf[i] ?? firstOf(columns, row.status);
      const status = column.category;
      // The file's first row is the newest task (the order an export writes them in), a ms apart.
      const created = new Date(now.getTime() - i).toISOString();
      tasks.push({
        id,
        workTitle: row.workTitle,
        taskTitle: row.taskTitle,
        assigneeEmail: row.assignee,
        createdBy: actor.userId,
        deadline: row.deadline,
        startAt: row.startAt,
        priority: row.priority,
        status,
        description: row.description,
        createdAt: created,
        updatedAt: created,
        version: 1,
        boardId,
        checklistDone: 0,
        checklistTotal: 0,
        // An open task with a deadline gets its "due soon" reminder, as a created one does.
        nextReminderAt: status === 'todo' ? nextReminderFor(row.deadline) : null,
        columnId: column.id,
        position: keys.get(column)?.shift() ?? '',
      });
      for (const name of row.labels) links.push({ taskId: id, labelId: labelIds.get(nameKeyOf(name)) ?? '' });
      activity.push(activityEntry(id, 'created', actor, now));
    });
    await deps.imports.insertTasks(tasks, trx);
    await deps.imports.insertTaskLabels(links, trx);
    for (let i = 0; i < activity.length; i += 500) await deps.activity.insert(activity.slice(i, i + 500), trx);
    await appendAll(trx, await boardEvents(deps.boards, trx, boardId, at, { othersUpdated: true }));
    return { tasks: tasks.length, labels: missing.size };
  });
}

import { SERVER_MESSAGES } from '#shared/messages.ts';
import { ID_RE } from '../db/ids.ts';
import { AppError } from '../errors.ts';

export const taskNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.taskNotFound);
/** A task's board the user is not an active member of answers like a missing one. */
export const boardNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.taskBoardNotFound);

/** An id from a URL: one that cannot be ours answers 404 (`notFound`, a task's by default) without a query. */
export function existingId(id: string, notFound: () => AppError = taskNotFound): string {
  if (!ID_RE.test(id)) throw notFound();
  return id;
}

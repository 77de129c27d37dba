import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { withMailNote } from '../../i18n/compose.ts';
import { BULK_TASKS_MAX, BulkConflictEnvelope, BulkFailEnvelope, BulkTasksBody, BulkTasksEnvelope, type BulkChange } from '#shared/schemas/tasks.ts';
import { validationFailed } from '../../errors.ts';
import { checkDeadline, checkEmail, checkLabelIds } from '#shared/validation.ts';
import { actorOf } from '../../services/actor.ts';
import { boardNotFound, existingId, taskNotFound } from '../../services/not-found.ts';
import { changeMany } from '../../services/task-bulk.ts';
import { aboutTask } from '../../services/task-writes.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

/** The body's change: exactly one kind (400 on `change` otherwise), with what does not depend on a task checked and normalised (400 naming the field). */
function checkedChange(body: BulkTasksBody['change'], now: Date): BulkChange {
  const kinds = Object.entries(body as Record<string, unknown>).filter(([, value]) => value !== undefined);
  if (kinds.length !== 1) throw validationFailed([{ field: 'change', message: SERVER_MESSAGES.bulkChangeKinds }]);
  const change = Object.fromEntries(kinds) as BulkChange;
  if ('assignee' in change) return { assignee: checkFields({ assignee: checkEmail(change.assignee) }).assignee };
  if ('deadline' in change) return { deadline: checkFields({ deadline: checkDeadline(change.deadline, now) }).deadline?.toISOString() ?? null };
  if ('addLabelIds' in change) return { addLabelIds: checkFields({ labelIds: checkLabelIds(change.addLabelIds) }).labelIds };
  if ('removeLabelIds' in change) return { removeLabelIds: [...new Set(change.removeLabelIds)] };
  if ('boardId' in change) return { boardId: existingId(change.boardId, boardNotFound) };
  return change;
}

/**
 * The version each task must have (`versions`, parallel to `taskIds`), by id; undefined when not
 * given. A count other than the ids', or one id given two versions, is a 400 on `versions`.
 */
function expectedVersions(taskIds: readonly string[], versions: readonly number[] | undefined): Map<string, number> | undefined {
  if (versions === undefined) return undefined;
  if (versions.length !== taskIds.length) throw validationFailed([{ field: 'versions', message: SERVER_MESSAGES.bulkVersionsCount }]);
  const byId = new Map<string, number>();
  for (const [i, id] of taskIds.entries()) {
    const version = versions[i] ?? 0;
    if ((byId.get(id) ?? version) !== version) throw validationFailed([{ field: 'versions', message: SERVER_MESSAGES.bulkVersionsTwice }]);
    byId.set(id, version);
  }
  return byId;
}

/** The same change of many tasks at once (services/task-bulk.ts). */
const bulk: FastifyPluginAsyncTypebox = (fastify) => {
  fastify.addHook('onRequest', fastify.authenticate);

  fastify.post(
    '/tasks/bulk',
    {
      schema: {
        tags: ['tasks'],
        summary: `Change up to ${BULK_TASKS_MAX} tasks at once, all or nothing`,
        description:
          `\`change\` is exactly one of \`{columnId}\`, \`{status}\`, \`{assignee}\`, \`{priority}\`, \`{deadline}\`, \`{addLabelIds}\`, \`{removeLabelIds}\`, \`{boardId}\`, \`{delete: true}\`; more than ${BULK_TASKS_MAX} ids is a 400 before any task is read. ` +
          'Every task is changed as `PATCH /api/tasks/:id` (or `DELETE`) would change it alone, with the same rights and rules: its version, its activity, its event and its webhooks; ' +
          'all in one transaction. If any task is missing or not visible (404), not editable by me (403), or the change is not valid for it (400: a column not of its board, a deadline before its start, more than 10 labels, …), ' +
          'the answer names that task in `message` and gives its id in `data.taskId`, and nothing changes. ' +
          'Moved tasks (`columnId`, `status`, `boardId`) go to the top of their column in the order of `taskIds`. ' +
          'An assignee given several tasks gets one mail for the whole change, counted once against my hourly mail limit. ' +
          'A move is never refused for a column\'s WIP limit: when it leaves a column over its limit, `message` is the warning, as for a single move. ' +
          'With `versions` (one per id, in the order of `taskIds`), every task must still be at its version, checked under the same row locks: ' +
          'otherwise 409 CONFLICT naming the first task that is not (`data.taskId`, its current copy in `data.task`), and nothing changes (an undo that must not overwrite a later change). ' +
          '200 `{tasks}` in the order of `taskIds`, or `{deleted: n}`.',
        security: sessionSecurity,
        body: BulkTasksBody,
        response: {
          200: serializable(BulkTasksEnvelope),
          400: serializable(BulkFailEnvelope),
          403: serializable(BulkFailEnvelope),
          404: serializable(BulkFailEnvelope),
          409: serializable(BulkConflictEnvelope),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { taskIds, change, versions } = request.body;
      const checked = checkedChange(change, fastify.clock.now());
      const expected = expectedVersions(taskIds, versions);
      // A malformed id is a task nobody sees: refused, by id, before anything is written.
      const ids = [...new Set(taskIds)].map((id) => existingId(id, () => aboutTask(taskNotFound(), id, undefined)));
      const { answer, warning, mailsHeld = 0 } = await changeMany(fastify.taskWrites, fastify.taskMail, fastify.db, actorOf(request), ids, checked, expected);
      const n = 'deleted' in answer ? answer.deleted : answer.tasks.length;
      const said = warning ?? SERVER_MESSAGES.tasksChanged(n);
      return { status: 'success', message: translateFor(request, withMailNote(said, mailsHeld)), data: answer } as const;
    },
  );

  return Promise.resolve();
};

export default bulk;

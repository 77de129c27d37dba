import { nextDeadline } from '#shared/repeat.ts';
import { placeAtTop } from '../repositories/columns-repository.ts';
import type { Repeat, Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import { nextReminderFor } from '../mail/reminder-schedule.ts';
import type { ChecklistRepository } from '../repositories/checklist-repository.ts';
import type { OutboxRepository } from '../repositories/outbox-repository.ts';
import type { NewActivity } from '../repositories/activity-repository.ts';
import type { TasksRepository } from '../repositories/tasks-repository.ts';
import { activityEntry, type ActivityChange } from './task-activity.ts';

/** `repeat` from the task row's two columns (both null: no repeat). */
export function repeatOf(every: number | null, unit: Repeat['unit'] | null): Repeat | null {
  return every === null || unit === null ? null : { every, unit };
}

/**
 * The next occurrence of a repeating task that is being completed: a copy on the same board
 * with the same titles, description, assignee, creator (the original one, not whoever completes
 * it), priority, labels and repeat; its checklist copied unticked; status to do, version 1; the
 * deadline advanced (shared/repeat.ts `nextDeadline`) and its reminders armed for it. No
 * assignment mail: nobody assigned anything anew.
 */
export function createOccurrences(repos: { tasks: TasksRepository; checklist: ChecklistRepository; outbox: OutboxRepository }) {
  return {
    /**
     * Writes the occurrence's rows through `ex`, which must be the completing write's transaction
     * holding the completed task's row lock (so two completions cannot both get here), and
     * returns it and its activity entry (`created`, with `repeatOf`) for the completing write to
     * store with its own, together with its `task.created` event: events need the event-order
     * lock, which a write takes last, after all its row locks (see task-write-statements.ts).
     */
    async create(
      completed: Task & { repeat: Repeat; deadline: string },
      actor: ActivityChange['actor'],
      now: Date,
      ex: Executor,
    ): Promise<{ task: Task; activity: NewActivity }> {
      const createdBy = await repos.tasks.creatorId(completed._id, ex);
      if (createdBy === undefined) throw new Error('The completed task has no row');
      const nowIso = now.toISOString();
      const items = await repos.checklist.list(completed._id, ex);
      const deadline = nextDeadline(completed.deadline, completed.repeat, now);
      // A start keeps its distance before the deadline.
      const startAt = completed.startAt === null ? null : new Date(Date.parse(deadline) - (Date.parse(completed.deadline) - Date.parse(completed.startAt))).toISOString();
      // The next occurrence goes to the top of the board's first todo column.
      const [place] = await placeAtTop(ex, [{ boardId: completed.boardId, status: 'todo' }]);
      if (place === undefined) throw new Error('No place for the next occurrence');
      const inserted = await repos.tasks.insert(
        {
          ...place,
          id: newId(),
          boardId: completed.boardId,
          taskTitle: completed.taskTitle,
          workTitle: completed.workTitle,
          description: completed.description,
          assigneeEmail: completed.assignee,
          createdBy,
          priority: completed.priority,
          status: 'todo',
          deadline,
          startAt,
          checklistDone: 0,
          checklistTotal: items.length,
          repeatEvery: completed.repeat.every,
          repeatUnit: completed.repeat.unit,
          createdAt: nowIso,
          updatedAt: nowIso,
        },
        { fullName: completed.assignor, email: completed.assignorEmail },
        ex,
      );
      await repos.checklist.insertUnticked(inserted._id, items, nowIso, ex);
      await repos.tasks.addLabels(inserted._id, completed.boardId, completed.labels.map((label) => label._id), ex);
      await repos.outbox.setNextReminder(inserted._id, nextReminderFor(deadline), ex);
      const occurrence: Task = { ...inserted, labels: completed.labels };
      const repeatOfTask = { repeatOf: { _id: completed._id, taskTitle: completed.taskTitle } };
      return { task: occurrence, activity: activityEntry(occurrence._id, 'created', actor, now, JSON.stringify(repeatOfTask)) };
    },
  };
}

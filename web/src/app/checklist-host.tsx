import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Task } from '#shared/schemas/tasks.ts';
import type { ChecklistHost } from '#web/features/checklists/api/get-checklist.ts';
import { TaskChecklist } from '#web/features/checklists/components/task-checklist.tsx';
import { useCanChangeTask } from '#web/features/tasks/api/board-scope.ts';
import { activityKey } from '#web/features/tasks/api/get-task-activity.ts';
import { recordOwnChange } from '#web/features/tasks/api/own-versions.ts';
import { receiveTask } from '#web/features/tasks/api/task-receipts.ts';
import { TASK_WRITES } from '#web/features/tasks/api/update-task.ts';

/**
 * The checklist on the task page, joined to the tasks' cache here (features do not import each
 * other). A checklist change answers with the task it made: one version on from the one it was
 * made on (no precondition), so an edit of the task based on that one is this tab's own step,
 * not a conflict; and it waits in the same queue as the task's other writes.
 */
export function TaskPageChecklist({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const canChange = useCanChangeTask(task);
  const host = useMemo<ChecklistHost>(
    () => ({
      scope: TASK_WRITES,
      receiveTask: (changed) => {
        recordOwnChange(queryClient, changed._id, changed.version - 1, changed.version);
        receiveTask(queryClient, changed, { isNew: false, answer: true });
        // The activity has a new entry ("checked “Buy milk”").
        void queryClient.invalidateQueries({ queryKey: activityKey(changed._id) });
      },
    }),
    [queryClient],
  );
  return <TaskChecklist task={task} canChange={canChange} host={host} />;
}

import type { Task } from '#shared/schemas/tasks.ts';
import { TaskChecklist } from '#web/features/checklists/components/task-checklist.tsx';
import { useCanChangeTask } from '#web/features/tasks/api/board-scope.ts';

/**
 * The checklist on the task page. Its changes wait in the device's queue with the task's other
 * writes; their answers reach the tasks' cache through registerQueuedWrites (write-queue.ts).
 */
export function TaskPageChecklist({ task }: { task: Task }) {
  const canChange = useCanChangeTask(task);
  return <TaskChecklist task={task} canChange={canChange} />;
}

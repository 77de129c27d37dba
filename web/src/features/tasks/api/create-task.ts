import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PRIORITY, DEFAULT_STATUS } from '#shared/constants.ts';
import type { CreateTaskBody, Task, TaskEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { personalBoardOf, useBoardScope } from './board-scope.ts';
import { useLiveBoard } from './live-board-context.ts';
import { cancelListFetches, findCachedTask, writeTask } from './cache-writes.ts';
import { newPendingId } from './pending-tasks.ts';
import { receiveTask } from './task-receipts.ts';
import { TASK_WRITES } from './update-task.ts';

export async function createTask(body: CreateTaskBody): Promise<{ task: Task; message: string }> {
  const envelope = await apiRequest<TaskEnvelope>('/tasks', { method: 'POST', body });
  return { task: envelope.data.task, message: envelope.message };
}

/**
 * The new card shows at once (its actions wait for the server's id); the server's task then
 * takes its place, or it goes again on failure (the form keeps the input and says why).
 */
export function useCreateTask() {
  const queryClient = useQueryClient();
  const live = useLiveBoard();
  // Without a board chosen the server puts the task on the creator's personal board.
  const personalId = personalBoardOf(useBoardScope().boards)?._id ?? '';
  return useMutation({
    scope: TASK_WRITES,
    mutationFn: createTask,
    onMutate: async (body) => {
      await cancelListFetches(queryClient);
      const now = new Date().toISOString();
      const pending: Task = {
        _id: newPendingId(),
        version: 0,
        description: '',
        workTitle: body.workTitle ?? '',
        taskTitle: body.taskTitle,
        assignee: body.assignee,
        assignor: live.viewer.fullName,
        assignorEmail: live.viewer.email,
        deadline: body.deadline === '' ? null : (body.deadline ?? null),
        priority: body.priority ?? DEFAULT_PRIORITY,
        status: DEFAULT_STATUS,
        createdAt: now,
        updatedAt: now,
        boardId: body.boardId ?? personalId,
        labels: [],
        checklist: { done: 0, total: 0 },
        repeat: null,
      };
      writeTask(queryClient, null, pending);
      return { pending };
    },
    onSuccess: ({ task }, _body, context) => {
      // The live event may have brought the real task first (then it replaced the stand-in).
      const standIn = findCachedTask(queryClient, context.pending._id);
      const replaced = receiveTask(queryClient, task, { isNew: true, answer: true, standIn });
      // The saved task was here already: the stand-in, if still shown, goes.
      if (replaced !== null && standIn) writeTask(queryClient, standIn, null);
    },
    onError: (_error, _body, context) => {
      const standIn = context && findCachedTask(queryClient, context.pending._id);
      if (standIn) writeTask(queryClient, standIn, null);
    },
  });
}

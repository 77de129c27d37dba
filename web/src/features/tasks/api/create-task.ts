import { t } from '@lingui/core/macro';
import { useMutation, type MutateOptions, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { DEFAULT_PRIORITY, DEFAULT_STATUS } from '#shared/constants.ts';
import type { CreateTaskBody, Task, TaskEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { QUEUED_WRITE_OPTIONS, queueNotices, THIS_PAGE_LOAD } from '#web/lib/write-queue.ts';
import { personalBoardOf, useBoardScope } from './board-scope.ts';
import { useLiveBoard, type Viewer } from './live-board-context.ts';
import { cancelListFetches, findCachedTask, writeTask } from './cache-writes.ts';
import { newPendingId } from './pending-tasks.ts';
import { receiveTask } from './task-receipts.ts';

export const CREATE_TASK_KEY = ['queued', 'task', 'create'] as const;

/** A create as it waits in the queue: everything needed to send it, and show it, after a reload. */
export interface CreateVariables {
  body: CreateTaskBody;
  /** Made with the change: every try sends the same one, so the server creates the task once. */
  idempotencyKey: string;
  /** The stand-in card's id. */
  pendingId: string;
  /** Who creates it (the stand-in's assignor). */
  creator: Viewer;
  /** Where the server puts it without a board chosen: the creator's personal board. */
  personalBoardId: string;
  /** The column the server will put it in (the board's first "to do" one), when known: where the stand-in shows. */
  columnId?: string;
}
interface CreateAnswer {
  task: Task;
  message: string;
}
interface CreateContext {
  pending: Task;
  madeIn: string;
}

export async function createTask(body: CreateTaskBody, idempotencyKey?: string): Promise<CreateAnswer> {
  const envelope = await apiRequest<TaskEnvelope>('/tasks', { method: 'POST', body, idempotencyKey });
  return { task: envelope.data.task, message: envelope.message };
}

function standIn({ body, pendingId, creator, personalBoardId, columnId }: CreateVariables): Task {
  const now = new Date().toISOString();
  return {
    _id: pendingId,
    version: 0,
    description: '',
    workTitle: body.workTitle ?? '',
    taskTitle: body.taskTitle,
    assignee: body.assignee,
    assignor: creator.fullName,
    assignorEmail: creator.email,
    deadline: body.deadline === '' ? null : (body.deadline ?? null),
    startAt: body.startAt === '' ? null : (body.startAt ?? null),
    priority: body.priority ?? DEFAULT_PRIORITY,
    status: DEFAULT_STATUS,
    createdAt: now,
    updatedAt: now,
    boardId: body.boardId ?? personalBoardId,
    labels: [],
    checklist: { done: 0, total: 0 },
    repeat: null,
    // Its place is the server's to give; a stand-in shows at the top of the column the server
    // puts a new task in until the answer comes.
    columnId: body.columnId ?? columnId ?? '',
    position: '',
    attachmentCount: 0,
    cover: null,
  };
}

/** How a create is sent and answered, for this session's creates and restored ones alike. */
export function registerCreateTask(queryClient: QueryClient): void {
  queryClient.setMutationDefaults<CreateAnswer, Error, CreateVariables, CreateContext>(CREATE_TASK_KEY, {
    ...QUEUED_WRITE_OPTIONS,
    mutationFn: ({ body, idempotencyKey }) => createTask(body, idempotencyKey),
    onMutate: async (variables) => {
      await cancelListFetches(queryClient);
      const pending = standIn(variables);
      writeTask(queryClient, null, pending);
      return { pending, madeIn: THIS_PAGE_LOAD };
    },
    onSuccess: ({ task }, { pendingId }) => {
      // The live event may have brought the real task first (then it replaced the stand-in).
      const shown = findCachedTask(queryClient, pendingId);
      const replaced = receiveTask(queryClient, task, { isNew: true, answer: true, standIn: shown });
      // The saved task was here already: the stand-in, if still shown, goes.
      if (replaced !== null && shown) writeTask(queryClient, shown, null);
    },
    onError: (error, { body, pendingId }, context) => {
      const shown = findCachedTask(queryClient, pendingId);
      if (shown) writeTask(queryClient, shown, null);
      // The form that made it says why; a create restored from the device has no form.
      if (context?.madeIn !== THIS_PAGE_LOAD && !isUnauthorized(error)) {
        const why = errorText(error);
        const title = body.taskTitle;
        queueNotices.send(queryClient, { tone: 'error', text: t`Couldn’t create “${title}”. ${why}` });
      }
    },
  });
}

/**
 * The new card shows at once (its actions wait for the server's id); the server's task then
 * takes its place, or it goes again on failure (the form keeps the input and says why).
 * `mutate(body)`: the key that makes a repeat harmless and the stand-in's id are made here.
 */
export function useCreateTask() {
  const live = useLiveBoard();
  const { boards } = useBoardScope();
  const personalBoardId = personalBoardOf(boards)?._id ?? '';
  const mutation = useMutation<CreateAnswer, Error, CreateVariables, CreateContext>({ mutationKey: CREATE_TASK_KEY });
  const { mutate: send } = mutation;
  const mutate = useCallback(
    (body: CreateTaskBody, options?: MutateOptions<CreateAnswer, Error, CreateVariables, CreateContext>) => {
      const board = boards?.find((b) => b._id === (body.boardId ?? personalBoardId));
      const columnId = board?.columns.find((column) => column.category === DEFAULT_STATUS)?._id;
      send({ body, idempotencyKey: crypto.randomUUID(), pendingId: newPendingId(), creator: live.viewer, personalBoardId, columnId }, options);
    },
    [send, live.viewer, personalBoardId, boards],
  );
  return useMemo(() => ({ ...mutation, mutate }), [mutation, mutate]);
}

import type { QueryClient } from '@tanstack/react-query';
import { registerCreateTask } from './create-task.ts';
import { registerDeleteTask } from './delete-task.ts';
import { registerMoveTask } from './move-task.ts';
import { registerOwnVersions } from './own-versions.ts';
import { registerUpdateTask } from './update-task.ts';

/**
 * The tasks' part of the device's queue of changes: create, change (any field, labels, board,
 * complete, reopen), move (between and within columns) and delete, each with its sending and its answer handling, and the versions
 * the device's own saves made (kept with the device copy).
 */
export function registerTaskWrites(queryClient: QueryClient): void {
  registerOwnVersions(queryClient);
  registerCreateTask(queryClient);
  registerUpdateTask(queryClient);
  registerDeleteTask(queryClient);
  registerMoveTask(queryClient);
}

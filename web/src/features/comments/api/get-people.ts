import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PeopleEnvelope, Person } from '#shared/schemas/comments.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const peopleKeys = {
  all: ['task-people'] as const,
  list: (taskId: string) => [...peopleKeys.all, taskId] as const,
};

/** `GET /api/tasks/:id/people`: everyone with an account who can see the task, by name (the server decides who). */
export async function getPeople(taskId: string, signal?: AbortSignal): Promise<Person[]> {
  const envelope = await apiRequest<PeopleEnvelope>(`/tasks/${encodeURIComponent(taskId)}/people`, { signal });
  return envelope.data.people;
}

/**
 * Whom a comment on the task can mention, and the names its mentions show. Asked for only when
 * needed (`enabled`: an `@` was typed, or a comment mentions someone); kept for a minute, since
 * a board's members change rarely and the server decides who a mention reaches anyway.
 */
export function usePeople(taskId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: peopleKeys.list(taskId),
      queryFn: ({ signal }) => getPeople(taskId, signal),
      enabled,
      staleTime: 60_000,
    }),
  );
}

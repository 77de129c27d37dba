/**
 * The device's queue of changes (web/src/lib/write-queue.ts and the registered task writes),
 * driven as the web app drives it — the same QueryClient, mutation defaults and API client — but
 * from Node, against the real Taskwise server the browser tests start. fast-check makes random
 * interleavings of this device's edits (queued, some while offline), another member's edits,
 * answers lost on the way back (the server did it; the device saw a network failure),
 * reconnects, and waits for some of the device's requests to come back (never for a time). Whatever happens: every change the queue reported saved is on the server exactly
 * once, no change is applied twice, nothing is left waiting, and the other member's edits stay.
 * It lives here, not in web/ (web tests must not reach a server) nor server/ (server code must
 * not import web/).
 */
import { i18n } from '@lingui/core';
import { MutationObserver, onlineManager, QueryClient } from '@tanstack/react-query';
import fc from 'fast-check';
import type { Activity } from '#shared/schemas/comments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { registerQueuedWrites } from '#web/app/write-queue.ts';
import { findCachedTask } from '#web/features/tasks/api/cache-writes.ts';
import { taskConflicts } from '#web/features/tasks/api/live-board-context.ts';
import { taskKeys } from '#web/features/tasks/api/query-keys.ts';
import { UPDATE_TASK_KEY, type UpdateVariables } from '#web/features/tasks/api/update-task.ts';
import { countQueuedWrites } from '#web/lib/write-queue.ts';
import { baseURL, expect, signedInState, test } from './fixtures.ts';

// The web app's texts in English (the queue's notices), as the app shows them before a catalog loads.
i18n.loadAndActivate({ locale: 'en', messages: {} });

type Step = { kind: 'edit' } | { kind: 'remote' } | { kind: 'lose-next' } | { kind: 'offline' } | { kind: 'online' } | { kind: 'answers'; count: number };

const STEP = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Step>({ kind: 'edit' }) },
  { weight: 2, arbitrary: fc.constant<Step>({ kind: 'remote' }) },
  { weight: 2, arbitrary: fc.constant<Step>({ kind: 'lose-next' }) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: 'offline' }) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: 'online' }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }).map<Step>((count) => ({ kind: 'answers', count })) },
);

async function cookieOf(user: Parameters<typeof signedInState>[0]): Promise<string> {
  const state = (await signedInState(user)) as { cookies: { name: string; value: string }[] };
  return state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** What the answers used here carry in `data`. */
interface Answer {
  board?: { _id: string };
  task?: Task;
  activity?: Activity[];
}

test('random offline edits, remote edits, lost answers and reconnects never lose a saved change nor apply one twice', async ({ createUser }) => {
  test.setTimeout(180_000);
  const origin = baseURL();
  const alice = await createUser();
  const bob = await createUser();
  const aliceCookie = await cookieOf(alice);
  const bobCookie = await cookieOf(bob);
  /** A request as `cookie`'s owner, straight to the server; `data` is the envelope's. */
  const call = async (cookie: string, method: string, path: string, body?: unknown): Promise<{ status: number; data: Answer }> => {
    const res = await fetch(`${origin}/api${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as { data?: Answer } | null;
    return { status: res.status, data: json?.data ?? {} };
  };
  const boardId = (await call(aliceCookie, 'POST', '/boards', { name: `Queue ${Date.now()}` })).data.board?._id ?? '';
  expect((await call(aliceCookie, 'POST', `/boards/${boardId}/members`, { email: bob.email, role: 'member' })).status).toBe(201);

  // The web app's fetch, as the browser would send it for Alice: relative paths, her cookie. An
  // answer can be "lost": the server did the request, the device sees a network failure.
  const realFetch = globalThis.fetch;
  let loseNext = false;
  // The device's requests under way and come back, so a step can wait for answers, not for a time.
  const requests = { underWay: 0, back: 0 };
  const waiters = new Set<() => void>();
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('/api/')) return realFetch(input, init);
    const headers = { ...(init?.headers as Record<string, string>), cookie: aliceCookie };
    requests.underWay++;
    try {
      const res = await realFetch(`${origin}${url}`, { ...init, headers });
      if (loseNext && init?.method === 'PATCH') {
        loseNext = false;
        await res.arrayBuffer();
        throw new TypeError('Failed to fetch');
      }
      return res;
    } finally {
      requests.underWay--;
      requests.back++;
      for (const wake of waiters) wake();
      waiters.clear();
    }
  };
  /** Resolves once `count` more of the device's requests have come back, or none is under way. */
  const answersBack = async (count: number) => {
    const target = requests.back + count;
    while (requests.underWay > 0 && requests.back < target) {
      await new Promise<void>((resolve) => waiters.add(resolve));
    }
  };

  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(STEP, { minLength: 1, maxLength: 14 }), async (steps) => {
        run++;
        loseNext = false;
        onlineManager.setOnline(true);
        const task = (await call(aliceCookie, 'POST', '/tasks', { taskTitle: `start ${run}`, assignee: alice.email, boardId })).data.task;
        if (!task) throw new Error('The task was not created.');
        const queryClient = new QueryClient();
        // Mounted as QueryClientProvider mounts it: it follows the online state (resumes on reconnect).
        queryClient.mount();
        registerQueuedWrites(queryClient);
        // Test-only: the queue's back-off in milliseconds, not seconds (registered after, so it wins).
        queryClient.setMutationDefaults(['queued'], { retryDelay: 20 });
        queryClient.setQueryData(taskKeys.detail(task._id), task);
        const conflicts: string[] = [];
        const detach = taskConflicts.attach(queryClient, (conflict) => conflicts.push(String(conflict.mine.taskTitle)));

        const saved: string[] = [];
        const refused: string[] = [];
        const outcomes: Promise<unknown>[] = [];
        const remote: string[] = [];
        for (const [i, step] of steps.entries()) {
          switch (step.kind) {
            case 'edit': {
              const title = `alice ${run}.${i}`;
              const base = findCachedTask(queryClient, task._id) ?? task;
              const observer = new MutationObserver<unknown, Error, UpdateVariables>(queryClient, { mutationKey: UPDATE_TASK_KEY });
              outcomes.push(
                observer.mutate({ task: base, changes: { taskTitle: title } }).then(
                  () => saved.push(title),
                  () => refused.push(title),
                ),
              );
              break;
            }
            case 'remote': {
              const description = `bob ${run}.${i}`;
              for (;;) {
                const current = (await call(bobCookie, 'GET', `/tasks/${task._id}`)).data.task;
                const res = await call(bobCookie, 'PATCH', `/tasks/${task._id}`, { description, version: current?.version });
                if (res.status === 200) break;
                expect(res.status).toBe(409);
              }
              remote.push(description);
              break;
            }
            case 'lose-next':
              loseNext = true;
              break;
            case 'offline':
              onlineManager.setOnline(false);
              break;
            case 'online':
              onlineManager.setOnline(true);
              break;
            case 'answers':
              await answersBack(step.count);
              break;
          }
        }
        onlineManager.setOnline(true);
        await Promise.all(outcomes);
        detach();
        expect(countQueuedWrites(queryClient)).toBe(0);
        expect(saved.length + refused.length).toBe(steps.filter((s) => s.kind === 'edit').length);
        // A refusal here can only be a conflict with Bob's edit (409): nothing else refuses, and
        // without Bob nothing is refused at all (a lost answer is not a conflict with oneself).
        expect(conflicts.sort()).toEqual([...refused].sort());
        if (remote.length === 0) expect(refused).toEqual([]);

        const activity = (await call(aliceCookie, 'GET', `/tasks/${task._id}/activity`)).data.activity ?? [];
        const applied = activity.flatMap((entry) => (entry.changes?.taskTitle?.to ? [entry.changes.taskTitle.to] : []));
        // Never applied twice; every saved change is on the server.
        expect(new Set(applied).size).toBe(applied.length);
        for (const title of saved) expect(applied).toContain(title);
        const final = (await call(aliceCookie, 'GET', `/tasks/${task._id}`)).data.task;
        // The last saved change holds, unless a later one was applied whose answer was lost and then refused.
        const last = saved.at(-1);
        if (last !== undefined) expect([last, ...refused.filter((title) => applied.includes(title))]).toContain(final?.taskTitle);
        // Bob's edits (another field) are never undone by this device's queue.
        expect(final?.description).toBe(remote.at(-1) ?? '');
        queryClient.unmount();
        queryClient.clear();
      }),
      { numRuns: 60 },
    );
  } finally {
    globalThis.fetch = realFetch;
    onlineManager.setOnline(true);
  }
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Comment } from '#shared/schemas/comments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { PublicUser } from '#shared/schemas/users.ts';
import { memoryStore, type CopyStore } from '#web/lib/device-copy.ts';
import { ADA, countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp, testDeviceCopy } from '#web/testing/render.tsx';

/*
 * A page opened right after a change made elsewhere shows the change, even when this device's
 * copy holds the page as it was a moment before. The copy is restored before the first render;
 * the new page's event stream starts at its own opening, so a change made before it reaches
 * neither: the copy must be asked again. jsdom has no IndexedDB nor EventSource: the copy is
 * a memory store that clones as IndexedDB does, and the stream one that opens at once and
 * carries nothing, as a new stream does when nothing happens after it opened.
 */

class OpenAtOnce extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = OpenAtOnce.CONNECTING;
  constructor() {
    super();
    queueMicrotask(() => {
      this.readyState = OpenAtOnce.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }
  close() {
    this.readyState = OpenAtOnce.CLOSED;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const BOB = { fullName: 'Bob Builder', email: 'bob@example.com' };

function comment(id: string, body: string): Comment {
  const at = new Date(Date.now() - 60_000).toISOString();
  return { _id: id, taskId: 't', body, author: BOB, createdAt: at, updatedAt: at, mentions: [] };
}

/** The task page's reads, answered from `state`. */
function taskPage(state: { task: Task; comments: Comment[] }) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', `/tasks/${state.task._id}`, () => json(200, { status: 'success', data: { task: state.task } }))
    .always('GET', `/tasks/${state.task._id}/comments`, () => json(200, { status: 'success', data: { comments: state.comments } }))
    .always('GET', `/tasks/${state.task._id}/activity`, () => json(200, { status: 'success', data: { activity: [] } }));
}

/** The board's reads, answered from `state`. */
function boardPage(state: { todo: Task[]; done: Task[] }) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', (call) => json(200, listAnswer(call.query.get('status') === 'done' ? state.done : state.todo)))
    .always('GET', '/tasks/counts', () => json(200, countsAnswer(state.todo.length, state.done.length)));
}

/** Leaves the page once the copy holds `text` (as the page going away saves it). */
async function leaveWithCopy(store: CopyStore, deviceCopy: ReturnType<typeof testDeviceCopy>, unmount: () => void, text: string) {
  await waitFor(async () => {
    await deviceCopy.flush();
    expect(JSON.stringify(await store.get('query-client'))).toContain(text);
  });
  unmount();
}

async function openAgain(path: string, store: CopyStore) {
  return renderApp(path, { signedIn: true, deviceCopy: testDeviceCopy({ store, owner: await store.get<PublicUser>('owner') }) });
}

describe('a page opened right after a change made elsewhere, with the page in the device copy', () => {
  it('shows a comment added meanwhile (the copy’s comments, seconds old, are asked again)', async () => {
    vi.stubGlobal('EventSource', OpenAtOnce);
    const store = memoryStore();
    const state = { task: makeTask({ _id: 't', taskTitle: 'Pay the invoice' }), comments: [comment('c1', 'First look')] };
    taskPage(state);
    const deviceCopy = testDeviceCopy({ store });
    const { unmount } = renderApp('/tasks/t', { signedIn: true, deviceCopy });
    expect(await screen.findByText('First look', undefined, { timeout: 5_000 })).toBeInTheDocument();
    await waitFor(async () => {
      expect(await store.get<PublicUser>('owner')).toEqual(ADA);
    });
    await leaveWithCopy(store, deviceCopy, unmount, 'First look');

    // Added through the API by someone else, before the page is opened again.
    state.comments = [...state.comments, comment('c2', 'Added elsewhere')];
    const api = taskPage(state);
    await openAgain('/tasks/t', store);
    expect(await screen.findByText('Added elsewhere')).toBeInTheDocument();
    expect(api.callsTo('GET', '/tasks/t/comments')).toHaveLength(1);
  });

  it('shows a task completed meanwhile in Completed, not in Tasks To Do (the stream opened before the copy was restored)', async () => {
    vi.stubGlobal('EventSource', OpenAtOnce);
    const store = memoryStore();
    const task = makeTask({ _id: 't1', taskTitle: 'Water the plants' });
    const state = { todo: [task], done: [] as Task[] };
    boardPage(state);
    const deviceCopy = testDeviceCopy({ store });
    const { unmount } = renderApp('/tasks', { signedIn: true, deviceCopy });
    await screen.findByRole('region', { name: 'Tasks To Do' }, { timeout: 5_000 });
    const todo = () => screen.getByRole('region', { name: 'Tasks To Do' });
    const done = () => screen.getByRole('region', { name: 'Completed' });
    expect(await within(todo()).findByRole('article', { name: 'Water the plants' }, { timeout: 5_000 })).toBeInTheDocument();
    await waitFor(async () => {
      expect(await store.get<PublicUser>('owner')).toEqual(ADA);
    });
    await leaveWithCopy(store, deviceCopy, unmount, 'Water the plants');

    // Completed through the API, before the page is opened again.
    state.todo = [];
    state.done = [{ ...task, status: 'done', version: task.version + 1 }];
    boardPage(state);
    await openAgain('/tasks', store);
    await screen.findByRole('region', { name: 'Completed' });
    expect(await within(done()).findByRole('article', { name: 'Water the plants' })).toBeInTheDocument();
    expect(within(todo()).queryByRole('article', { name: 'Water the plants' })).not.toBeInTheDocument();
  });
});

import { dehydrate, hydrate, onlineManager, type QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { createQueryClient } from '#web/lib/query-client.ts';
import { JUST_FETCHED_MS } from '#web/features/tasks/api/live-board-context.ts';
import { countQueuedWrites } from '#web/lib/write-queue.ts';
import { countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { testDeviceCopy } from '#web/testing/render.tsx';
import { json, mockFetch, networkError, type Call } from '#web/testing/fetch.ts';
import { createDataLayer } from './data-layer.tsx';
import { AppProviders } from './providers.tsx';
import { registerQueuedWrites } from './write-queue.ts';
import { AppRoutes } from './routes.tsx';
import '#web/app/signed-in.tsx';
import '#web/app/routes/tasks.tsx';

/*
 * The device's queue of changes, driven through the board as a person uses it: one change at a
 * time in the order made; a refusal rolls back only that change and the queue goes on; a change
 * that got no answer is sent again (never rolled back); a change restored from the device after
 * a reload is sent and answered exactly like one made in this page load.
 */

const updated = (task: Task) => json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task } });

/** The board's answers: the given to-do tasks (and none done). */
function board(todo: Task[]) {
  return mockFetch()
    .always('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', (call: Call) => json(200, listAnswer(call.query.get('status') === 'done' ? [] : todo)))
    .always('GET', '/tasks/counts', json(200, countsAnswer(todo.length, 0)));
}

function renderBoard(queryClient: QueryClient = createQueryClient()) {
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  // As main.tsx does before the first render of a tab that starts signed in.
  registerQueuedWrites(queryClient);
  const user = userEvent.setup();
  render(
    <AppProviders deviceCopy={testDeviceCopy()} dataLayer={createDataLayer(queryClient)}>
      <MemoryRouter initialEntries={['/tasks']}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  return { user, queryClient };
}

const card = (title: string) => screen.getByRole('article', { name: title });

/** Opens the card's edit form and saves the new priority. */
async function editPriority(user: ReturnType<typeof userEvent.setup>, title: string, priority: string) {
  await user.click(within(card(title)).getByRole('button', { name: 'Edit' }));
  await user.selectOptions(within(card(title)).getByLabelText('Priority'), priority);
  await user.click(within(card(title)).getByRole('button', { name: 'Save' }));
}

/** An answer the test gives when it chooses. */
function held() {
  let answer: (response: Response | Error) => void = () => undefined;
  const promise = new Promise<Response | Error>((resolve) => (answer = resolve));
  return { answer, reply: () => promise };
}

afterEach(() => {
  onlineManager.setOnline(true);
});

describe('the queue of changes', () => {
  it('runs one change at a time in order; a refused one is rolled back with a message naming it, and the next one goes on', async () => {
    const first = makeTask({ taskTitle: 'First task' });
    const second = makeTask({ taskTitle: 'Second task' });
    const api = board([first, second]);
    const firstAnswer = held();
    api.on('PATCH', `/tasks/${first._id}`, firstAnswer.reply);
    api.on('PATCH', `/tasks/${second._id}`, updated({ ...second, priority: 'low', version: 2 }));
    const { user, queryClient } = renderBoard();
    await screen.findByRole('article', { name: 'First task' });

    await editPriority(user, 'First task', 'Urgent');
    await editPriority(user, 'Second task', 'Low');
    // Both show at once; only the first is sent until it is answered.
    expect(card('First task')).toHaveTextContent('Urgent priority');
    expect(card('Second task')).toHaveTextContent('Low priority');
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
    expect(countQueuedWrites(queryClient)).toBe(2);

    firstAnswer.answer(json(403, { status: 'fail', code: 'FORBIDDEN', message: 'You can only view this board.' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Couldn’t save “First task”. You can only view this board.');
    await waitFor(() => {
      expect(card('First task')).toHaveTextContent('Normal priority');
    });
    await waitFor(() => {
      expect(countQueuedWrites(queryClient)).toBe(0);
    });
    expect(api.callsTo('PATCH', `/tasks/${second._id}`)[0]?.body).toEqual({ priority: 'low', version: 1 });
    expect(card('Second task')).toHaveTextContent('Low priority');
  });

  it('sends a change that got no answer again, keeping it on screen meanwhile, with the same version', async () => {
    const task = makeTask({ taskTitle: 'Patchy network' });
    const api = board([task]);
    api.on('PATCH', `/tasks/${task._id}`, networkError());
    api.on('PATCH', `/tasks/${task._id}`, updated({ ...task, priority: 'urgent', version: 2 }));
    const { user, queryClient } = renderBoard();
    await screen.findByRole('article', { name: 'Patchy network' });

    await editPriority(user, 'Patchy network', 'Urgent');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    // Not rolled back, no message: it waits for the next try (a second later).
    expect(card('Patchy network')).toHaveTextContent('Urgent priority');
    expect(countQueuedWrites(queryClient)).toBe(1);
    await waitFor(
      () => {
        expect(countQueuedWrites(queryClient)).toBe(0);
      },
      { timeout: 4000 },
    );
    const sent = api.callsTo('PATCH', `/tasks/${task._id}`).map((c) => c.body);
    expect(sent).toEqual([
      { priority: 'urgent', version: 1 },
      { priority: 'urgent', version: 1 },
    ]);
    expect(card('Patchy network')).toHaveTextContent('Urgent priority');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('counts a 409 that holds exactly this change, one version on, as its own lost answer, not a conflict', async () => {
    const task = makeTask({ taskTitle: 'Lost answer' });
    const api = board([task]);
    api.on('PATCH', `/tasks/${task._id}`, networkError());
    // The first try reached the server; its answer did not reach the device.
    api.on('PATCH', `/tasks/${task._id}`, json(409, { status: 'fail', code: 'CONFLICT', message: 'The task has changed.', data: { task: { ...task, priority: 'urgent', version: 2 } } }));
    const { user, queryClient } = renderBoard();
    await screen.findByRole('article', { name: 'Lost answer' });
    await editPriority(user, 'Lost answer', 'Urgent');
    await waitFor(
      () => {
        expect(countQueuedWrites(queryClient)).toBe(0);
      },
      { timeout: 4000 },
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(card('Lost answer')).toHaveTextContent('Urgent priority');
  });

  it('offline, the create form is free for the next task at once and says the task is saved on this device; online it is sent', async () => {
    const api = board([]);
    const saved = makeTask({ taskTitle: 'Written on a train' });
    api.on('POST', '/tasks', json(201, { status: 'success', message: SERVER_MESSAGES.taskCreated, data: { task: saved } }));
    const { user, queryClient } = renderBoard();
    await screen.findByRole('heading', { level: 1, name: 'Tasks' });
    onlineManager.setOnline(false);
    await user.click(screen.getByRole('button', { name: 'Create Task' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Task' });
    await user.type(within(dialog).getByLabelText('Task title'), 'Written on a train');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(await within(dialog).findByText(CLIENT_MESSAGES.createdOffline)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Task title')).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Create Task' })).toBeEnabled();
    expect(api.callsTo('POST', '/tasks')).toHaveLength(0);
    expect(countQueuedWrites(queryClient)).toBe(1);

    onlineManager.setOnline(true);
    await waitFor(() => {
      expect(countQueuedWrites(queryClient)).toBe(0);
    });
    expect(api.callsTo('POST', '/tasks')).toHaveLength(1);
  });

  it('sends a create again with the same Idempotency-Key', async () => {
    const api = board([]);
    const saved = makeTask({ taskTitle: 'Made offline' });
    api.on('POST', '/tasks', networkError());
    api.on('POST', '/tasks', json(201, { status: 'success', message: SERVER_MESSAGES.taskCreated, data: { task: saved } }));
    const { user, queryClient } = renderBoard();
    await screen.findByRole('heading', { level: 1, name: 'Tasks' });
    await user.click(screen.getByRole('button', { name: 'Create Task' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Task' });
    await user.type(within(dialog).getByLabelText('Task title'), 'Made offline');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    await waitFor(
      () => {
        expect(countQueuedWrites(queryClient)).toBe(0);
      },
      { timeout: 4000 },
    );
    const keys = api.spy.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('waits while offline; restored after a reload it is sent on reconnect, and a 409 opens the conflict dialog for that task', async () => {
    const task = makeTask({ taskTitle: 'Edited offline', priority: 'normal' });
    const api = board([task]);
    const before = renderBoard();
    await screen.findByRole('article', { name: 'Edited offline' });
    onlineManager.setOnline(false);
    await editPriority(before.user, 'Edited offline', 'Urgent');
    expect(card('Edited offline')).toHaveTextContent('Urgent priority');
    expect(countQueuedWrites(before.queryClient)).toBe(1);
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    // The reload: what the device copy stores (every query, the waiting change) into a new page.
    const stored = structuredClone(dehydrate(before.queryClient, { shouldDehydrateMutation: () => true }));
    cleanup();
    const after = createQueryClient();
    const theirs = { ...task, assignee: 'carol@example.com', version: 2 };
    api.on('PATCH', `/tasks/${task._id}`, json(409, { status: 'fail', code: 'CONFLICT', message: 'The task has changed.', data: { task: theirs } }));
    const { queryClient } = renderBoard(after);
    hydrate(after, stored);
    expect(countQueuedWrites(queryClient)).toBe(1);
    expect(await screen.findByRole('article', { name: 'Edited offline' })).toHaveTextContent('Urgent priority');

    onlineManager.setOnline(true);
    const dialog = await screen.findByRole('alertdialog', { name: 'This task changed while you were working on it' });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ priority: 'urgent', version: 1 });
    expect(dialog).toHaveTextContent('carol@example.com');
    expect(countQueuedWrites(queryClient)).toBe(0);
  });

  it('chains the versions of this device\'s own changes across a reload: the next change is not a conflict with the last', async () => {
    const task = makeTask({ taskTitle: 'Two steps', priority: 'normal' });
    const api = board([task]);
    const before = renderBoard();
    await screen.findByRole('article', { name: 'Two steps' });
    onlineManager.setOnline(false);
    await editPriority(before.user, 'Two steps', 'Urgent');
    await editPriority(before.user, 'Two steps', 'Low');
    // Back online: the first is answered; the second is under way when the page goes.
    api.on('PATCH', `/tasks/${task._id}`, updated({ ...task, priority: 'urgent', version: 2 }));
    api.on('PATCH', `/tasks/${task._id}`, () => new Promise<Response>(() => undefined));
    onlineManager.setOnline(true);
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(2);
    });
    // What the device copy stores: the change under way, marked paused so it is resumed.
    const stored = structuredClone(dehydrate(before.queryClient, { shouldDehydrateMutation: (m) => m.state.status === 'pending' }));
    for (const mutation of stored.mutations) mutation.state.isPaused = true;
    expect(stored.mutations).toHaveLength(1);
    cleanup();

    api.on('PATCH', `/tasks/${task._id}`, updated({ ...task, priority: 'low', version: 3 }));
    const { queryClient } = renderBoard(createQueryClient());
    hydrate(queryClient, stored);
    await queryClient.resumePausedMutations();
    const sent = api.callsTo('PATCH', `/tasks/${task._id}`).map((c) => c.body);
    expect(sent).toEqual([
      { priority: 'urgent', version: 1 },
      { priority: 'low', version: 2 },
      { priority: 'low', version: 2 },
    ]);
    expect(await screen.findByRole('article', { name: 'Two steps' })).toHaveTextContent('Low priority');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('on reconnect sends the waiting changes before the board is asked again, so the answer cannot wipe a change still waiting', async () => {
    const task = makeTask({ taskTitle: 'Reconnect order', priority: 'normal' });
    const api = board([task]);
    const { user, queryClient } = renderBoard();
    await screen.findByRole('article', { name: 'Reconnect order' });
    onlineManager.setOnline(false);
    await editPriority(user, 'Reconnect order', 'Urgent');
    // The board's lists go stale (a reconnect asks for them again): the clock (Date only; timers
    // stay real) is moved past their stale time instead of waiting for it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + JUST_FETCHED_MS + 100);
    const patch = held();
    api.on('PATCH', `/tasks/${task._id}`, patch.reply);
    const listsBefore = api.callsTo('GET', '/tasks').length;

    onlineManager.setOnline(true);
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    // The change is under way: the lists (which would still answer "Normal") are not asked yet,
    // and none is asked before its answer (checked by the order of the calls below).
    expect(api.callsTo('GET', '/tasks')).toHaveLength(listsBefore);
    expect(card('Reconnect order')).toHaveTextContent('Urgent priority');

    const answeredAt = api.calls.length;
    patch.answer(updated({ ...task, priority: 'urgent', version: 2 }));
    await waitFor(() => {
      expect(countQueuedWrites(queryClient)).toBe(0);
    });
    // Then the reconnect's refetch comes (the lists went stale meanwhile).
    await waitFor(() => {
      expect(api.callsTo('GET', '/tasks').length).toBeGreaterThan(listsBefore);
    });
    expect(api.calls.slice(0, answeredAt).filter((c) => c.method === 'GET' && c.path === '/api/tasks')).toHaveLength(listsBefore);
    expect(card('Reconnect order')).toHaveTextContent('Urgent priority');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, noContent, type Call } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';
import { JUST_FETCHED_MS } from '../api/live-board-context.ts';

/** The board's answers for this test: the given tasks, split by the `status` the call asks for. */
function board(initial: { todo?: Task[]; done?: Task[] } = {}) {
  const state = { todo: initial.todo ?? [], done: initial.done ?? [] };
  const pick = (call: Call) => {
    const priority = call.query.get('priority');
    const status = call.query.get('status') === 'done' ? 'done' : 'todo';
    return state[status].filter((t) => !priority || t.priority === priority);
  };
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', (call) => json(200, listAnswer(pick(call))))
    .always('GET', '/tasks/counts', (call) => {
      const priority = call.query.get('priority');
      const count = (list: Task[]) => list.filter((t) => !priority || t.priority === priority).length;
      return json(200, countsAnswer(count(state.todo), count(state.done)));
    });
  return { api, state };
}

async function openBoard() {
  const rendered = renderApp('/tasks', { signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Tasks' });
  return rendered;
}

function column(name: 'Tasks To Do' | 'Completed') {
  return screen.getByRole('region', { name });
}

describe('task board', () => {
  it('shows both columns with counts and a card per task', async () => {
    const soon = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const past = new Date(Date.now() - 2 * 3600_000).toISOString();
    board({
      todo: [
        makeTask({ taskTitle: 'Write the launch post', workTitle: 'Launch', priority: 'urgent', deadline: soon }),
        makeTask({ taskTitle: 'Renew the certificate', priority: 'high', deadline: past }),
      ],
      done: [makeTask({ taskTitle: 'Book the venue', status: 'done', priority: 'low' })],
    });
    await openBoard();

    const todo = column('Tasks To Do');
    const card = await within(todo).findByRole('article', { name: 'Write the launch post' });
    expect(within(todo).getAllByRole('article')).toHaveLength(2);
    expect(within(todo).getByText('2')).toBeInTheDocument();
    expect(within(column('Completed')).getByText('1')).toBeInTheDocument();

    expect(card).toHaveTextContent('Launch');
    expect(card).toHaveTextContent('Urgent priority');
    expect(card).toHaveTextContent('bob@example.com');
    expect(card).toHaveTextContent('Ada Lovelace');
    expect(card).toHaveTextContent('in 3 days');
    expect(within(card).getByRole('button', { name: 'Mark complete' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Delete' })).toBeInTheDocument();

    const overdue = within(todo).getByRole('article', { name: 'Renew the certificate' });
    expect(overdue).toHaveTextContent('Overdue');
    expect(overdue).toHaveTextContent('2 hours ago');

    const done = await within(column('Completed')).findByRole('article', { name: 'Book the venue' });
    expect(within(done).queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    expect(done).not.toHaveTextContent('Overdue');
  });

  it('shows no count while a column loads: a placeholder read as "loading", never a 0', async () => {
    // The lists and counts are answered only when the test says so.
    const held: (() => void)[] = [];
    const later = (answer: () => Response) => () =>
      new Promise<Response>((resolve) => {
        held.push(() => {
          resolve(answer());
        });
      });
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', later(() => json(200, listAnswer([makeTask({ taskTitle: 'Water the plants' })]))))
      .always('GET', '/tasks/counts', later(() => json(200, countsAnswer(7, 3))));
    await openBoard();
    await waitFor(() => {
      expect(held).toHaveLength(3);
    });
    for (const name of ['Tasks To Do', 'Completed'] as const) {
      const count = column(name).querySelector('.column__count');
      expect(count).toHaveTextContent('Count loading');
      expect(count?.textContent).not.toMatch(/\d/);
    }
    for (const answer of held) answer();
    expect(await within(column('Tasks To Do')).findByText('7')).toBeInTheDocument();
    expect(within(column('Completed')).getByText('3')).toBeInTheDocument();
    expect(screen.queryByText('Count loading')).not.toBeInTheDocument();
  });

  it('asks for each column by status and page, and the counts', async () => {
    const { api } = board();
    await openBoard();
    await waitFor(() => {
      expect(api.callsTo('GET', '/tasks')).toHaveLength(2);
    });
    const statuses = api.callsTo('GET', '/tasks').map((c) => c.query.get('status'));
    expect(statuses.sort()).toEqual(['done', 'todo']);
    expect(api.callsTo('GET', '/tasks')[0]?.query.get('limit')).toBe('50');
    expect(api.callsTo('GET', '/tasks/counts')).toHaveLength(1);
  });

  it('shows designed empty states', async () => {
    board();
    await openBoard();
    expect(await within(column('Tasks To Do')).findByText('No tasks to do')).toBeInTheDocument();
    expect(within(column('Completed')).getByText('No completed tasks yet')).toBeInTheDocument();
  });

  it('shows an error with a working "Try again"', async () => {
    let fail = true;
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', () =>
        fail ? json(503, { status: 'error', code: 'SERVICE_UNAVAILABLE', message: SERVER_MESSAGES.serviceUnavailable }) : json(200, listAnswer([makeTask({ taskTitle: 'Back again' })])),
      )
      .always('GET', '/tasks/counts', json(200, countsAnswer(1, 0)));
    const { user } = await openBoard();
    const todo = column('Tasks To Do');
    expect(await within(todo).findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.serviceUnavailable);
    fail = false;
    await user.click(within(todo).getByRole('button', { name: 'Try again' }));
    expect(await within(todo).findByRole('article', { name: 'Back again' })).toBeInTheDocument();
  });

  it('filters by priority with aria-pressed buttons, keeping the old cards until the new ones arrive', async () => {
    const { api } = board({
      todo: [makeTask({ taskTitle: 'Urgent thing', priority: 'urgent' }), makeTask({ taskTitle: 'Low thing', priority: 'low' })],
    });
    const { user } = await openBoard();
    await within(column('Tasks To Do')).findByRole('article', { name: 'Low thing' });
    const filters = screen.getByRole('group', { name: 'Filter by priority' });
    const names = within(filters).getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['All Tasks', 'Urgent', 'High', 'Normal', 'Low']);
    expect(within(filters).getByRole('button', { name: 'All Tasks' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(filters).getByRole('button', { name: 'Urgent' }));
    expect(within(filters).getByRole('button', { name: 'Urgent' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(filters).getByRole('button', { name: 'All Tasks' })).toHaveAttribute('aria-pressed', 'false');
    // No flash of skeletons: the previous cards stay until the filtered answer replaces them.
    expect(screen.queryByText('Loading tasks…')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(within(column('Tasks To Do')).queryByRole('article', { name: 'Low thing' })).not.toBeInTheDocument();
    });
    expect(within(column('Tasks To Do')).getByRole('article', { name: 'Urgent thing' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/tasks').some((c) => c.query.get('priority') === 'urgent')).toBe(true);
    expect(api.callsTo('GET', '/tasks/counts').some((c) => c.query.get('priority') === 'urgent')).toBe(true);

    // Back to a filter already in the cache: its cards show at once, and, its answer being older
    // than a second (there is no live stream here), it is asked again. The clock (Date only;
    // timers stay real) is moved past that second instead of waiting for it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + JUST_FETCHED_MS + 50);
    const allCalls = () => api.callsTo('GET', '/tasks').filter((c) => !c.query.has('priority')).length;
    const before = allCalls();
    await user.click(within(filters).getByRole('button', { name: 'All Tasks' }));
    expect(within(column('Tasks To Do')).getByRole('article', { name: 'Low thing' })).toBeInTheDocument();
    await waitFor(() => {
      expect(allCalls()).toBeGreaterThanOrEqual(before + 2);
    });
  });

  it('marks a task complete with PATCH {status: "done", version}, moving the card at once', async () => {
    const task = makeTask({ taskTitle: 'Ship it' });
    const { api, state } = board({ todo: [task] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: 'Ship it' });
    api.on('PATCH', `/tasks/${task._id}`, () => {
      state.todo = [];
      state.done = [{ ...task, status: 'done' }];
      return json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: state.done[0] } });
    });
    await user.click(within(card).getByRole('button', { name: 'Mark complete' }));
    expect(await within(column('Completed')).findByRole('article', { name: 'Ship it' })).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ status: 'done', version: 1 });
    expect(within(column('Tasks To Do')).queryByRole('article')).not.toBeInTheDocument();
  });
});

describe('editing a task', () => {
  it('edits assignee and priority inline, one card at a time', async () => {
    const first = makeTask({ taskTitle: 'First task' });
    const second = makeTask({ taskTitle: 'Second task' });
    const { api, state } = board({ todo: [first, second] });
    const { user } = await openBoard();
    const firstCard = await within(column('Tasks To Do')).findByRole('article', { name: 'First task' });
    const secondCard = within(column('Tasks To Do')).getByRole('article', { name: 'Second task' });

    await user.click(within(firstCard).getByRole('button', { name: 'Edit' }));
    expect(within(firstCard).getByLabelText('Assignee')).toHaveFocus();
    await user.click(within(secondCard).getByRole('button', { name: 'Edit' }));
    expect(within(firstCard).queryByLabelText('Assignee')).not.toBeInTheDocument();
    expect(within(secondCard).getByLabelText('Assignee')).toHaveValue('bob@example.com');

    await user.clear(within(secondCard).getByLabelText('Assignee'));
    await user.type(within(secondCard).getByLabelText('Assignee'), 'Carol@Example.com');
    await user.selectOptions(within(secondCard).getByLabelText('Priority'), 'High');
    api.on('PATCH', `/tasks/${second._id}`, () => {
      state.todo = [first, { ...second, assignee: 'carol@example.com', priority: 'high' }];
      return json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: state.todo[1] } });
    });
    await user.click(within(secondCard).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(within(column('Tasks To Do')).getByRole('article', { name: 'Second task' })).toHaveTextContent('carol@example.com');
    });
    expect(api.callsTo('PATCH', `/tasks/${second._id}`)[0]?.body).toEqual({ assignee: 'carol@example.com', priority: 'high', version: 1 });
    const card = within(column('Tasks To Do')).getByRole('article', { name: 'Second task' });
    expect(card).toHaveTextContent('High priority');
    expect(within(card).getByRole('button', { name: 'Edit' })).toHaveFocus();
  });

  it('cancels without a request', async () => {
    const { api } = board({ todo: [makeTask({ taskTitle: 'Leave me' })] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: 'Leave me' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    await user.type(within(card).getByLabelText('Assignee'), 'x');
    await user.click(within(card).getByRole('button', { name: 'Cancel' }));
    expect(within(card).queryByLabelText('Assignee')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('shows the change at once, then rolls it back with the server message when saving fails', async () => {
    const task = makeTask({ taskTitle: 'Tricky one' });
    const { api } = board({ todo: [task] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: 'Tricky one' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    await user.selectOptions(within(card).getByLabelText('Priority'), 'Urgent');
    let answer: (response: Response) => void = () => undefined;
    api.on('PATCH', `/tasks/${task._id}`, () => new Promise<Response>((resolve) => (answer = resolve)));
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    // Before the server answers: the form is gone and the card shows the new priority.
    expect(within(card).queryByLabelText('Priority')).not.toBeInTheDocument();
    const shown = () => within(column('Tasks To Do')).getByRole('article', { name: 'Tricky one' });
    await waitFor(() => {
      expect(shown()).toHaveTextContent('Urgent priority');
    });
    answer(json(500, { status: 'error', code: 'INTERNAL', message: SERVER_MESSAGES.internalError }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Couldn’t save “Tricky one”. ${SERVER_MESSAGES.internalError}`);
    await waitFor(() => {
      expect(shown()).toHaveTextContent('Normal priority');
    });
  });

  it('sets, keeps and clears the start, read in local time', async () => {
    const deadline = new Date(2031, 5, 20, 17, 0).toISOString();
    const task = makeTask({ taskTitle: 'Plan it', deadline });
    const started = makeTask({ taskTitle: 'Started', deadline, startAt: new Date(2031, 5, 10, 9, 30, 15).toISOString() });
    const { api } = board({ todo: [task, started] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: 'Plan it' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    const start = within(card).getByLabelText(/^Start/);
    expect(start).toHaveValue('');
    expect(start).toHaveAccessibleDescription(/^Not after the deadline, /);
    await user.type(start, '2031-06-18T08:15');
    api.on('PATCH', `/tasks/${task._id}`, () => json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: { ...task, version: 2, startAt: new Date(2031, 5, 18, 8, 15).toISOString() } } }));
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ startAt: new Date(2031, 5, 18, 8, 15).toISOString(), version: 1 });

    // A start with seconds, left as it is: nothing to save.
    const other = within(column('Tasks To Do')).getByRole('article', { name: 'Started' });
    await user.click(within(other).getByRole('button', { name: 'Edit' }));
    expect(within(other).getByLabelText(/^Start/)).toHaveValue('2031-06-10T09:30');
    await user.click(within(other).getByRole('button', { name: 'Save' }));
    expect(within(other).queryByLabelText(/^Start/)).not.toBeInTheDocument();
    expect(api.callsTo('PATCH', `/tasks/${started._id}`)).toHaveLength(0);

    // Emptied: the start goes.
    await user.click(within(other).getByRole('button', { name: 'Edit' }));
    await user.clear(within(other).getByLabelText(/^Start/));
    api.on('PATCH', `/tasks/${started._id}`, () => json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: { ...started, version: 2, startAt: null } } }));
    await user.click(within(other).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${started._id}`)).toHaveLength(1);
    });
    expect(api.callsTo('PATCH', `/tasks/${started._id}`)[0]?.body).toEqual({ startAt: null, version: 1 });
  });

  it('refuses a start after the deadline on screen, without a request', async () => {
    const task = makeTask({ taskTitle: 'Too late', deadline: new Date(2031, 5, 20, 17, 0).toISOString() });
    const { api } = board({ todo: [task] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: 'Too late' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    const start = within(card).getByLabelText(/^Start/);
    await user.type(start, '2031-06-21T09:00');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(within(card).getByText('Start cannot be after the deadline.')).toBeInTheDocument();
    expect(start).toHaveAttribute('aria-invalid', 'true');
    expect(start).toHaveFocus();
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    // The same moment as the deadline is allowed.
    await user.clear(start);
    await user.type(start, '2031-06-20T17:00');
    api.on('PATCH', `/tasks/${task._id}`, () => json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: { ...task, version: 2, startAt: task.deadline } } }));
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
  });

  it('shows the server’s refusal of the start when the deadline moved meanwhile', async () => {
    const task = makeTask({ taskTitle: 'Moved deadline', deadline: new Date(2031, 5, 20, 17, 0).toISOString() });
    const { api } = board({ todo: [task] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: 'Moved deadline' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    await user.type(within(card).getByLabelText(/^Start/), '2031-06-19T09:00');
    const message = 'Start cannot be after the deadline.';
    api.on('PATCH', `/tasks/${task._id}`, json(400, { status: 'fail', code: 'VALIDATION_FAILED', message, errors: [{ field: 'startAt', message }] }));
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Couldn’t save “Moved deadline”. ${message}`);
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ startAt: new Date(2031, 5, 19, 9, 0).toISOString(), version: 1 });
  });

  it('refuses an assignee that is not an e-mail address', async () => {
    const { api } = board({ todo: [makeTask({ taskTitle: 'Check me' })] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: 'Check me' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    await user.clear(within(card).getByLabelText('Assignee'));
    await user.type(within(card).getByLabelText('Assignee'), 'bob');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(within(card).getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });
});

describe('deleting a task', () => {
  async function askToDelete(task: Task) {
    const { api, state } = board({ todo: [task] });
    const { user } = await openBoard();
    const card = await within(column('Tasks To Do')).findByRole('article', { name: task.taskTitle });
    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete task?' });
    return { api, state, user, dialog };
  }

  it('asks first, focusing Cancel; Cancel deletes nothing', async () => {
    const { api, user, dialog } = await askToDelete(makeTask({ taskTitle: 'Keep me' }));
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveTextContent('“Keep me” will be removed');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(within(screen.getByRole('article', { name: 'Keep me' })).getByRole('button', { name: 'Delete' })).toHaveFocus();
  });

  it('removes the card at once and sends DELETE with the version', async () => {
    const task = makeTask({ taskTitle: 'Remove me' });
    const { api, state, user, dialog } = await askToDelete(task);
    api.on('DELETE', `/tasks/${task._id}`, () => {
      state.todo = [];
      return noContent();
    });
    await user.click(within(dialog).getByRole('button', { name: 'Delete task' }));
    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'Remove me' })).not.toBeInTheDocument();
    });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Deleted “Remove me”.')).toHaveAttribute('role', 'status');
    expect(api.callsTo('DELETE', `/tasks/${task._id}`)[0]?.query.get('version')).toBe('1');
    expect(screen.getByRole('heading', { level: 1, name: 'Tasks' })).toHaveFocus();
  });

  it('takes the card off and says so when the task is already gone (404)', async () => {
    const task = makeTask({ taskTitle: 'Not yours' });
    const { api, user, dialog } = await askToDelete(task);
    api.on('DELETE', `/tasks/${task._id}`, json(404, { status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.taskNotFound }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete task' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.taskNotFound);
    expect(screen.queryByRole('article', { name: 'Not yours' })).not.toBeInTheDocument();
  });

  it('brings the card back with the message when the delete fails', async () => {
    const task = makeTask({ taskTitle: 'Still here' });
    const { api, user, dialog } = await askToDelete(task);
    api.on('DELETE', `/tasks/${task._id}`, json(500, { status: 'error', code: 'INTERNAL', message: SERVER_MESSAGES.internalError }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete task' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.internalError);
    expect(await within(column('Tasks To Do')).findByRole('article', { name: 'Still here' })).toBeInTheDocument();
    expect(within(column('Tasks To Do')).getByText('1')).toBeInTheDocument();
  });

  it('shows "Error deleting task" when a non-204 answer has no message', async () => {
    const task = makeTask({ taskTitle: 'Odd answer' });
    const { api, user, dialog } = await askToDelete(task);
    api.on('DELETE', `/tasks/${task._id}`, json(200, { status: 'success' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete task' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(new RegExp(`^${CLIENT_MESSAGES.deleteFailedDefault}$`));
  });
});

describe('paging', () => {
  it('loads the next page with the cursor when asked for more', async () => {
    const firstPage = Array.from({ length: 3 }, (_, i) => makeTask({ taskTitle: `Page one ${i}` }));
    const secondPage = [makeTask({ taskTitle: 'Page two 0' })];
    const api = mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', (call) => {
        if (call.query.get('status') === 'done') return json(200, listAnswer([]));
        return call.query.get('cursor') === 'c2' ? json(200, listAnswer(secondPage, null)) : json(200, listAnswer(firstPage, 'c2'));
      })
      .always('GET', '/tasks/counts', json(200, countsAnswer(4, 0)));
    const { user } = await openBoard();
    const todo = column('Tasks To Do');
    await within(todo).findByRole('article', { name: 'Page one 0' });
    expect(within(todo).getByRole('feed', { name: 'Tasks To Do' })).toBeInTheDocument();
    expect(within(todo).getByRole('article', { name: 'Page one 0' })).toHaveAttribute('aria-setsize', '4');
    await user.click(within(todo).getByRole('button', { name: 'Load more tasks' }));
    expect(await within(todo).findByRole('article', { name: 'Page two 0' })).toHaveAttribute('aria-posinset', '4');
    expect(within(todo).queryByRole('button', { name: 'Load more tasks' })).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/tasks').some((c) => c.query.get('cursor') === 'c2')).toBe(true);
  });
});

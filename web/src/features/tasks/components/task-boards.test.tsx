import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { ADA, boardAnswer, boardsAnswer, countsAnswer, listAnswer, makeBoard, makeTask, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';

const TEAM = makeBoard({ _id: 'team', name: 'Launch team', role: 'member' });
const WATCHED = makeBoard({ _id: 'watched', name: 'Watched', role: 'viewer' });
const BOARDS = [PERSONAL_BOARD, TEAM, WATCHED];

function api(todo: Task[] = []) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer(BOARDS)))
    .always('GET', '/boards/team', json(200, boardAnswer(TEAM)))
    .always('GET', '/boards/watched', json(200, boardAnswer(WATCHED)))
    .always('GET', '/tasks', (call) => json(200, listAnswer(call.query.get('status') === 'todo' ? todo : [])))
    .always('GET', '/tasks/counts', json(200, countsAnswer(todo.length, 0)));
}

describe('the Board select of the new-task form', () => {
  it('offers the boards where the viewer may create, starting with the board on screen', async () => {
    const fetch = api();
    const { user } = renderApp('/boards/team', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Create Task' }, { timeout: 10_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Create Task' });
    const select = within(dialog).getByRole('combobox', { name: /Board/ });
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Personal', 'Launch team']);
    expect(select).toHaveValue('team');
    fetch.on('POST', '/tasks', (call) =>
      json(201, { status: 'success', message: 'Task created.', data: { task: makeTask({ ...(call.body as Partial<Task>), boardId: 'team' }) } }),
    );
    await user.type(within(dialog).getByLabelText('Task title'), 'Write the launch post');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    await waitFor(() => {
      expect(fetch.callsTo('POST', '/tasks')[0]?.body).toMatchObject({ taskTitle: 'Write the launch post', boardId: 'team' });
    });
  });

  it('starts with Personal on "All my tasks", and sends the board chosen', async () => {
    const fetch = api();
    const { user } = renderApp('/tasks', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Create Task' }, { timeout: 5000 }));
    const dialog = screen.getByRole('dialog', { name: 'Create Task' });
    const select = within(dialog).getByRole('combobox', { name: /Board/ });
    expect(select).toHaveValue(PERSONAL_BOARD._id);
    await user.selectOptions(select, 'team');
    fetch.on('POST', '/tasks', json(201, { status: 'success', message: 'Task created.', data: { task: makeTask({ boardId: 'team' }) } }));
    await user.type(within(dialog).getByLabelText('Task title'), 'Plan');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    await waitFor(() => {
      expect(fetch.callsTo('POST', '/tasks')[0]?.body).toMatchObject({ boardId: 'team' });
    });
  });
});

describe('a viewer of a board', () => {
  it('gets no create, complete, edit or delete controls, except on the tasks assigned to them', async () => {
    const theirs = makeTask({ taskTitle: 'Someone else’s', boardId: 'watched', assignee: 'bob@example.com' });
    const mine = makeTask({ taskTitle: 'Mine to do', boardId: 'watched', assignee: ADA.email });
    api([theirs, mine]);
    renderApp('/boards/watched', { signedIn: true });
    const theirCard = await screen.findByRole('article', { name: 'Someone else’s' }, { timeout: 5000 });
    expect(within(theirCard).queryByRole('button')).not.toBeInTheDocument();
    const myCard = screen.getByRole('article', { name: 'Mine to do' });
    expect(within(myCard).getByRole('button', { name: 'Mark complete' })).toBeInTheDocument();
    expect(within(myCard).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Task' })).not.toBeInTheDocument();
  });
});

describe('"All my tasks"', () => {
  it('names each card’s board', async () => {
    api([makeTask({ taskTitle: 'On the team board', boardId: 'team' }), makeTask({ taskTitle: 'Just mine', boardId: PERSONAL_BOARD._id })]);
    renderApp('/tasks', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'On the team board' }, { timeout: 5000 });
    await within(card).findByText('Launch team');
    expect(within(screen.getByRole('article', { name: 'Just mine' })).getByText('Personal')).toBeInTheDocument();
  });

  it('names the boards the viewer is not on with one request for all of them, and the task page names its board', async () => {
    const names = (_id: string, name: string) => ({ _id, name, columns: [{ _id: `${_id}-todo`, name: 'Tasks To Do', category: 'todo' }] });
    const sales = makeTask({ taskTitle: 'Sales call', boardId: 'sales', columnId: 'sales-todo', assignee: ADA.email });
    const ops = makeTask({ taskTitle: 'Ops rota', boardId: 'ops', columnId: 'ops-todo', assignee: ADA.email });
    const gone = makeTask({ taskTitle: 'From a closed board', boardId: 'closed', columnId: 'closed-todo', assignee: ADA.email });
    const fetch = api([sales, ops, gone])
      .always('GET', '/boards/names', (call) =>
        json(200, { status: 'success', data: { boards: (call.query.get('ids') ?? '').split(',').flatMap((id) => (id === 'sales' ? [names('sales', 'Sales')] : id === 'ops' ? [names('ops', 'Ops')] : [])) } }),
      )
      .always('GET', `/tasks/${sales._id}`, json(200, { status: 'success', data: { task: sales } }))
      .always('GET', `/tasks/${sales._id}/comments`, json(200, { status: 'success', data: { comments: [] } }))
      .always('GET', `/tasks/${sales._id}/activity`, json(200, { status: 'success', data: { activity: [] } }))
      .always('GET', `/tasks/${sales._id}/checklist`, json(200, { status: 'success', data: { items: [] } }));
    const { user } = renderApp('/tasks', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Sales call' }, { timeout: 5000 });
    await waitFor(() => {
      expect(card).toHaveTextContent('Board: Sales · , column: Tasks To Do');
    });
    expect(screen.getByRole('article', { name: 'Ops rota' })).toHaveTextContent('Board: Ops · , column: Tasks To Do');
    // A board the server does not name: the card names none.
    expect(within(screen.getByRole('article', { name: 'From a closed board' })).queryByText(/Board:/)).not.toBeInTheDocument();
    const asked = fetch.callsTo('GET', '/boards/names');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.query.get('ids')?.split(',').toSorted()).toEqual(['closed', 'ops', 'sales']);

    await user.click(within(card).getByRole('link', { name: 'Sales call' }));
    await screen.findByRole('heading', { level: 1, name: 'Sales call' }, { timeout: 5000 });
    const select = await screen.findByRole('combobox', { name: 'Move to board' });
    expect(select).toHaveValue('sales');
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Sales', 'Personal', 'Launch team']);
    // The names were known already: no second request.
    expect(fetch.callsTo('GET', '/boards/names')).toHaveLength(1);
  });
});

describe('the task page', () => {
  it('shows the board and moves the task with PATCH {boardId, version}', async () => {
    const task = makeTask({ taskTitle: 'Move me', boardId: PERSONAL_BOARD._id, version: 3 });
    const fetch = api()
      .always('GET', `/tasks/${task._id}`, json(200, { status: 'success', data: { task } }))
      .always('GET', `/tasks/${task._id}/comments`, json(200, { status: 'success', data: { comments: [] } }))
      .always('GET', `/tasks/${task._id}/activity`, json(200, { status: 'success', data: { activity: [] } }));
    const { user } = renderApp(`/tasks/${task._id}`, { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Move me' }, { timeout: 5000 });
    const select = await screen.findByRole('combobox', { name: 'Move to board' });
    expect(select).toHaveValue(PERSONAL_BOARD._id);
    // Only boards where the viewer may create tasks.
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Personal', 'Launch team']);
    fetch.on('PATCH', `/tasks/${task._id}`, json(200, { status: 'success', data: { task: { ...task, boardId: 'team', version: 4 } } }));
    await user.selectOptions(select, 'team');
    await waitFor(() => {
      expect(fetch.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ boardId: 'team', version: 3 });
    });
    await waitFor(() => {
      expect(select).toHaveValue('team');
    });
  });
});

describe('the task page’s column', () => {
  const [todo, done] = TEAM.columns;
  const pageOf = (task: Task) =>
    api()
      .always('GET', `/tasks/${task._id}`, json(200, { status: 'success', data: { task } }))
      .always('GET', `/tasks/${task._id}/comments`, json(200, { status: 'success', data: { comments: [] } }))
      .always('GET', `/tasks/${task._id}/activity`, json(200, { status: 'success', data: { activity: [] } }));

  it('shows the column and moves the task to the top of another with POST …/move {columnId, afterId: null, version}', async () => {
    const task = makeTask({ taskTitle: 'Move me along', boardId: TEAM._id, columnId: todo?._id, version: 3 });
    const fetch = pageOf(task);
    const { user } = renderApp(`/tasks/${task._id}`, { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Move me along' }, { timeout: 5000 });
    const select = await screen.findByRole('combobox', { name: 'Move to column' });
    expect(select).toHaveValue(todo?._id);
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Tasks To Do', 'Completed']);
    fetch.on('POST', `/tasks/${task._id}/move`, json(200, { status: 'success', message: 'The task was moved.', data: { task: { ...task, columnId: done?._id, status: 'done', version: 4 } } }));
    await user.selectOptions(select, done?._id ?? '');
    await waitFor(() => {
      expect(fetch.callsTo('POST', `/tasks/${task._id}/move`)[0]?.body).toEqual({ columnId: done?._id, afterId: null, version: 3 });
    });
    // Into a done column: the task is completed, and the page says so.
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Reopen' })).toBeInTheDocument();
    });
    expect(select).toHaveValue(done?._id);
  });

  it('names the column without a select for a viewer of the board', async () => {
    const [watchedTodo] = WATCHED.columns;
    const task = makeTask({ taskTitle: 'Only to read', boardId: WATCHED._id, columnId: watchedTodo?._id, assignee: 'someone@example.com' });
    pageOf(task);
    renderApp(`/tasks/${task._id}`, { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Only to read' }, { timeout: 5000 });
    const column = await screen.findByText('Column');
    expect(column.closest('div')).toHaveTextContent('ColumnTasks To Do');
    expect(screen.queryByRole('combobox', { name: 'Move to column' })).not.toBeInTheDocument();
  });
});

describe('the sign-up page', () => {
  it('fills in the address a board invitation was sent to', async () => {
    mockFetch();
    renderApp('/sign-up?email=new%40example.com');
    expect(await screen.findByLabelText(/E-mail/, undefined, { timeout: 5000 })).toHaveValue('new@example.com');
  });
});

import { i18n } from '@lingui/core';
import { onlineManager } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Column } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { NARROW_SCREEN_QUERY } from '#web/lib/use-popover.ts';
import { boardAnswer, boardsAnswer, listAnswer, makeBoard, makeMember, makeTask, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch, noContent } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';
import { STALE_POSITION_NOTICE } from '../api/move-task.ts';
import { CARD_SIZE_KEY } from './board-view.tsx';

const COLUMNS: Column[] = [
  { _id: 'col-todo', name: 'Tasks To Do', category: 'todo', wipLimit: null, position: 'a0' },
  { _id: 'col-review', name: 'Review', category: 'todo', wipLimit: 1, position: 'a1' },
  { _id: 'col-done', name: 'Completed', category: 'done', wipLimit: null, position: 'a2' },
];
const FLOW = makeBoard({ _id: 'flow', name: 'Flow', role: 'admin', columns: COLUMNS });
const MEMBERS = [makeMember(), makeMember({ email: 'grace@example.com', fullName: 'Grace Brewster Hopper', role: 'member' })];

/** What GET /api/tasks/counts answers for the board's columns as `byColumn` holds them now. */
function countsOf(byColumn: Record<string, Task[]>) {
  const columns = Object.fromEntries(COLUMNS.map((column) => [column._id, byColumn[column._id]?.length ?? 0]));
  const todo = (columns['col-todo'] ?? 0) + (columns['col-review'] ?? 0);
  return { status: 'success', data: { counts: { todo, done: columns['col-done'] ?? 0, overdue: 0, columns } } };
}

/** A board of three columns; `byColumn`: the tasks each column's list answers (the server's state: a test may change it). */
function api(byColumn: Record<string, Task[]>) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, FLOW])))
    .always('GET', '/boards/flow', json(200, boardAnswer(FLOW, MEMBERS)))
    .always('GET', '/boards/flow/labels', json(200, { status: 'success', data: { labels: [] } }))
    .always('GET', '/tasks', (call) => json(200, listAnswer(byColumn[call.query.get('column') ?? ''] ?? [])))
    .always('GET', '/tasks/counts', () => json(200, countsOf(byColumn)));
}

afterEach(() => {
  localStorage.removeItem(CARD_SIZE_KEY);
});

describe('a board’s columns', () => {
  it('show left to right with their counts, each asked for in its own order, and the WIP state when over', async () => {
    const fetch = api({ 'col-review': [makeTask({ boardId: 'flow', columnId: 'col-review' }), makeTask({ boardId: 'flow', columnId: 'col-review' })] });
    renderApp('/boards/flow', { signedIn: true });
    const review = await screen.findByRole('region', { name: 'Review' }, { timeout: 10_000 });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(expect.arrayContaining(['Tasks To Do', 'Review', 'Completed']));
    await waitFor(() => {
      expect(within(review).getByText('2 tasks, WIP limit 1, over the limit')).toBeInTheDocument();
    });
    const asked = fetch.callsTo('GET', '/tasks').map((call) => [call.query.get('column'), call.query.get('sort')]);
    expect(asked).toEqual(expect.arrayContaining([['col-todo', 'position'], ['col-review', 'position'], ['col-done', 'position']]));
  });
});

describe('the column menu', () => {
  it('renames a column; a refusal shows the server’s words in the dialog and keeps what was typed', async () => {
    const fetch = api({});
    const { user } = renderApp('/boards/flow', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Column options: Review' }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: 'Edit column…' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit column “Review”' });
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'completed');
    fetch.on('PATCH', '/boards/flow/columns/col-review', json(409, { status: 'fail', code: 'COLUMN_EXISTS', message: 'This board already has a column with that name.' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save column' }));
    expect(await within(dialog).findByText('This board already has a column with that name.')).toBeInTheDocument();
    expect(name).toHaveValue('completed');
    // The category was not changed, so it is not sent (a column holding tasks would refuse it).
    expect(fetch.callsTo('PATCH', '/boards/flow/columns/col-review')[0]?.body).toEqual({ name: 'completed', wipLimit: 1 });

    await user.clear(name);
    await user.type(name, 'Checking');
    fetch.on('PATCH', '/boards/flow/columns/col-review', json(200, { status: 'success', message: 'The column was saved.', data: { column: { ...COLUMNS[1], name: 'Checking' } } }));
    await user.click(within(dialog).getByRole('button', { name: 'Save column' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Edit column “Review”' })).not.toBeInTheDocument();
    });
    expect(fetch.callsTo('PATCH', '/boards/flow/columns/col-review')[1]?.body).toEqual({ name: 'Checking', wipLimit: 1 });
  });

  it('asks where a deleted column’s tasks go, offering only columns of its category', async () => {
    const fetch = api({ 'col-review': [makeTask({ boardId: 'flow', columnId: 'col-review' })] });
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const review = await screen.findByRole('region', { name: 'Review' }, { timeout: 10_000 });
    await waitFor(() => {
      expect(within(review).getByText('1 task, WIP limit 1')).toBeInTheDocument();
    });
    await user.click(within(review).getByRole('button', { name: 'Column options: Review' }));
    await user.click(screen.getByRole('button', { name: 'Delete column…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete column “Review”?' });
    const moveTo = within(dialog).getByRole('combobox', { name: 'Move its tasks to' });
    expect(within(moveTo).getAllByRole('option').map((option) => option.textContent)).toEqual(['Tasks To Do']);
    fetch.on('DELETE', '/boards/flow/columns/col-review', noContent());
    await user.click(within(dialog).getByRole('button', { name: 'Delete column' }));
    await waitFor(() => {
      expect(fetch.callsTo('DELETE', '/boards/flow/columns/col-review')[0]?.query.get('moveTo')).toBe('col-todo');
    });
  });
});

describe('on a phone, where the board shows one column', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('adds a column from a column’s menu, right after that column (there is no room for “Add column” at the board’s end)', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === NARROW_SCREEN_QUERY, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
    const fetch = api({});
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const column = await screen.findByRole('region', { name: 'Tasks To Do' }, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: 'Add column' })).not.toBeInTheDocument();
    await user.click(within(column).getByRole('button', { name: 'Column options: Tasks To Do' }));
    await user.click(screen.getByRole('button', { name: 'Add column…' }));
    const dialog = screen.getByRole('dialog', { name: 'Add column' });
    await user.type(within(dialog).getByLabelText('Name'), 'Doing');
    fetch.on('POST', '/boards/flow/columns', json(201, { status: 'success', message: 'The column was added.', data: { column: { _id: 'col-doing', name: 'Doing', category: 'todo', wipLimit: null, position: 'a0V' } } }));
    await user.click(within(dialog).getByRole('button', { name: 'Add column' }));
    await waitFor(() => {
      expect(fetch.callsTo('POST', '/boards/flow/columns')[0]?.body).toEqual({ name: 'Doing', category: 'todo', wipLimit: null, afterId: 'col-todo' });
    });
  });
});

describe('a filtered board’s columns', () => {
  it('hold the whole column to its WIP limit, and ask where a deleted column’s tasks go though the filter shows none', async () => {
    const review = [makeTask({ boardId: 'flow', columnId: 'col-review', priority: 'low' }), makeTask({ boardId: 'flow', columnId: 'col-review', priority: 'low' })];
    // With the priority filter, the server finds and counts only urgent tasks: none in Review.
    const shown = (call: { query: URLSearchParams }): Record<string, Task[]> => (call.query.get('priority') === 'urgent' ? {} : { 'col-review': review });
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, FLOW])))
      .always('GET', '/boards/flow', json(200, boardAnswer(FLOW, MEMBERS)))
      .always('GET', '/boards/flow/labels', json(200, { status: 'success', data: { labels: [] } }))
      .always('GET', '/tasks', (call) => json(200, listAnswer(shown(call)[call.query.get('column') ?? ''] ?? [])))
      .always('GET', '/tasks/counts', (call) => json(200, countsOf(shown(call))));
    const { user } = renderApp('/boards/flow?priority=urgent', { signedIn: true });
    const column = await screen.findByRole('region', { name: 'Review' }, { timeout: 10_000 });
    await waitFor(() => {
      expect(within(column).getByText('2 tasks, WIP limit 1, over the limit')).toBeInTheDocument();
    });
    await user.click(within(column).getByRole('button', { name: 'Column options: Review' }));
    await user.click(screen.getByRole('button', { name: 'Delete column…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete column “Review”?' });
    expect(within(dialog).getByRole('combobox', { name: 'Move its tasks to' })).toBeInTheDocument();
  });
});

describe('the compact card', () => {
  it('shows title, labels, initials, overdue deadline, checklist and repeat, without the actions; the size is kept on the device', async () => {
    const task = makeTask({
      boardId: 'flow',
      columnId: 'col-todo',
      taskTitle: 'Ship v2',
      // A member: her initials come from her name, as on the board's member strip.
      assignee: 'grace@example.com',
      deadline: new Date(Date.now() - 86_400_000).toISOString(),
      checklist: { done: 2, total: 5 },
      repeat: { every: 1, unit: 'week' },
      labels: [{ _id: 'l1', name: 'Launch', color: 'blue' }],
    });
    // Not on the board: initials from the address.
    const outside = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Print flyers', assignee: 'kat.johnson@example.com' });
    api({ 'col-todo': [task, outside] });
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const detailed = await screen.findByRole('article', { name: 'Ship v2' }, { timeout: 10_000 });
    expect(within(detailed).getByRole('button', { name: 'Mark complete' })).toBeInTheDocument();
    await user.click(within(screen.getByRole('group', { name: 'Card size' })).getByRole('button', { name: 'Compact' }));
    const card = screen.getByRole('article', { name: 'Ship v2' });
    expect(within(card).queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    await waitFor(() => {
      expect(within(card).getByText('GH')).toBeInTheDocument();
    });
    expect(within(screen.getByRole('article', { name: 'Print flyers' })).getByText('KJ')).toBeInTheDocument();
    expect(within(card).getByText('Overdue')).toBeInTheDocument();
    expect(within(card).getByText('2 of 5 checklist items done')).toBeInTheDocument();
    expect(within(card).getByText('Launch')).toBeInTheDocument();
    expect(within(card).getByText(/every week/i)).toBeInTheDocument();
    expect(localStorage.getItem(CARD_SIZE_KEY)).toBe('compact');
  });
});

describe('a card’s files', () => {
  it('shows the cover above the detailed card and a paper clip with the count on both sizes', async () => {
    const cover = { attachmentId: 'a1', thumbnailUrl: '/api/attachments/a1/thumbnail', width: 480, height: 270 };
    const task = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Ship v2', attachmentCount: 3, cover });
    const plain = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Plain' });
    api({ 'col-todo': [task, plain] });
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Ship v2' }, { timeout: 10_000 });
    // Decoration: no name, and its size known before it loads.
    const image = card.querySelector('img.task-card__cover');
    expect(image).toHaveAttribute('src', cover.thumbnailUrl);
    expect(image).toHaveAttribute('alt', '');
    expect(image).toHaveAttribute('width', '480');
    expect(image).toHaveAttribute('height', '270');
    expect(within(card).getByText('3 attachments')).toBeInTheDocument();
    const other = screen.getByRole('article', { name: 'Plain' });
    expect(other.querySelector('img')).toBeNull();
    expect(within(other).queryByText(/attachments?$/)).not.toBeInTheDocument();

    await user.click(within(screen.getByRole('group', { name: 'Card size' })).getByRole('button', { name: 'Compact' }));
    const compact = screen.getByRole('article', { name: 'Ship v2' });
    expect(within(compact).getByText('3 attachments')).toBeInTheDocument();
  });
});

describe('moving a card by keyboard', () => {
  it('Alt+→ sends the move to the next column’s top, shows it there at once and announces it', async () => {
    const task = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Ship v2', assignee: 'ada@example.com' });
    const server: Record<string, Task[]> = { 'col-todo': [task] };
    const fetch = api(server);
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Ship v2' }, { timeout: 10_000 });
    const moved = { ...task, columnId: 'col-review', version: 2, position: 'b' };
    fetch.on('POST', `/tasks/${task._id}/move`, () => {
      server['col-todo'] = [];
      server['col-review'] = [moved];
      return json(200, { status: 'success', message: 'The task was moved.', data: { task: moved } });
    });
    card.focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    const review = screen.getByRole('region', { name: 'Review' });
    expect(await within(review).findByRole('article', { name: 'Ship v2' })).toBeInTheDocument();
    expect(screen.getByTestId('move-announcer')).toHaveTextContent('Moved ‘Ship v2’ to Review, position 1 of 1');
    await waitFor(() => {
      expect(fetch.callsTo('POST', `/tasks/${task._id}/move`)[0]?.body).toEqual({ columnId: 'col-review', afterId: null, version: 1 });
    });
  });
});

describe('moving a card within its column and a spot that is gone', () => {
  it('Alt+↓ sends the card below the next one and announces its new place', async () => {
    const first = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'First', assignee: 'ada@example.com' });
    const second = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Second', assignee: 'ada@example.com' });
    const server: Record<string, Task[]> = { 'col-todo': [first, second] };
    const fetch = api(server);
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'First' }, { timeout: 10_000 });
    const moved = { ...first, version: 2, position: 'z' };
    fetch.on('POST', `/tasks/${first._id}/move`, () => {
      server['col-todo'] = [second, moved];
      return json(200, { status: 'success', message: 'The task was moved.', data: { task: moved } });
    });
    card.focus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(screen.getByTestId('move-announcer')).toHaveTextContent('Moved ‘First’ to Tasks To Do, position 2 of 2');
    await waitFor(() => {
      expect(fetch.callsTo('POST', `/tasks/${first._id}/move`)[0]?.body).toEqual({ columnId: 'col-todo', afterId: second._id, version: 1 });
    });
    const todo = screen.getByRole('region', { name: 'Tasks To Do' });
    await waitFor(() => {
      expect(within(todo).getAllByRole('article').map((a) => a.getAttribute('data-task-id'))).toEqual([second._id, first._id]);
    });
  });

  it('STALE_POSITION puts the card back, asks for the column again and says so', async () => {
    const task = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Ship v2', assignee: 'ada@example.com' });
    const fetch = api({ 'col-todo': [task] });
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Ship v2' }, { timeout: 10_000 });
    fetch.on('POST', `/tasks/${task._id}/move`, json(409, { status: 'fail', code: 'STALE_POSITION', message: 'That spot is gone.' }));
    const asked = fetch.callsTo('GET', '/tasks').filter((call) => call.query.get('column') === 'col-review').length;
    card.focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(await screen.findByText(i18n._(STALE_POSITION_NOTICE))).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Tasks To Do' })).getByRole('article', { name: 'Ship v2' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Review' })).queryByRole('article', { name: 'Ship v2' })).not.toBeInTheDocument();
    await waitFor(() => {
      expect(fetch.callsTo('GET', '/tasks').filter((call) => call.query.get('column') === 'col-review').length).toBeGreaterThan(asked);
    });
  });
});

describe('a move into a conflict', () => {
  it('shows where each put the card; "Apply mine on top" makes the same move on their version', async () => {
    const task = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Ship v2', assignee: 'ada@example.com' });
    const server: Record<string, Task[]> = { 'col-todo': [task] };
    const fetch = api(server);
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Ship v2' }, { timeout: 10_000 });
    // Someone else completed it meanwhile.
    const theirs = { ...task, columnId: 'col-done', status: 'done' as const, version: 2 };
    fetch.on('POST', `/tasks/${task._id}/move`, json(409, { status: 'fail', code: 'CONFLICT', message: 'The task has changed.', data: { task: theirs } }));
    card.focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    const dialog = await screen.findByRole('alertdialog', { name: 'This task changed while you were working on it' });
    const column = within(dialog)
      .getAllByRole('listitem')
      .find((item) => within(item).queryByRole('heading', { name: 'Column' }));
    expect(column).toHaveTextContent('TheirsCompleted (was Tasks To Do)');
    expect(column).toHaveTextContent('YoursReview');

    const mine = { ...theirs, columnId: 'col-review', status: 'todo' as const, version: 3 };
    fetch.on('POST', `/tasks/${task._id}/move`, () => {
      server['col-todo'] = [];
      server['col-review'] = [mine];
      return json(200, { status: 'success', message: 'The task was moved.', data: { task: mine } });
    });
    await user.click(within(dialog).getByRole('button', { name: 'Apply mine on top' }));
    await waitFor(() => {
      expect(fetch.callsTo('POST', `/tasks/${task._id}/move`)).toHaveLength(2);
    });
    expect(fetch.callsTo('POST', `/tasks/${task._id}/move`)[1]?.body).toEqual({ columnId: 'col-review', afterId: null, version: 2 });
    expect(fetch.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(0);
    expect(await within(screen.getByRole('region', { name: 'Review' })).findByRole('article', { name: 'Ship v2' })).toBeInTheDocument();
  });
});

describe('completing a card on a board while offline', () => {
  it('shows it at once in the board’s first done column, and sends only the status once online', async () => {
    const task = makeTask({ boardId: 'flow', columnId: 'col-review', taskTitle: 'Check the copy', assignee: 'ada@example.com' });
    const server: Record<string, Task[]> = { 'col-review': [task] };
    const fetch = api(server);
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Check the copy' }, { timeout: 10_000 });
    onlineManager.setOnline(false);
    try {
      await user.click(within(card).getByRole('button', { name: 'Mark complete' }));
      // Waiting on the device: in Completed, no longer in Review (not gone from both).
      const completed = screen.getByRole('region', { name: 'Completed' });
      expect(await within(completed).findByRole('article', { name: 'Check the copy' })).toBeInTheDocument();
      expect(within(screen.getByRole('region', { name: 'Review' })).queryByRole('article', { name: 'Check the copy' })).not.toBeInTheDocument();
      expect(fetch.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(0);
      const saved = { ...task, status: 'done' as const, columnId: 'col-done', version: 2 };
      fetch.on('PATCH', `/tasks/${task._id}`, () => {
        server['col-review'] = [];
        server['col-done'] = [saved];
        return json(200, { status: 'success', message: 'Task updated.', data: { task: saved } });
      });
    } finally {
      onlineManager.setOnline(true);
    }
    await waitFor(() => {
      expect(fetch.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ status: 'done', version: 1 });
    });
    expect(await within(screen.getByRole('region', { name: 'Completed' })).findByRole('article', { name: 'Check the copy' })).toBeInTheDocument();
  });
});

describe('a click on a card', () => {
  it('opens its task page, but not from its own controls', async () => {
    const task = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Read the brief', assignee: 'ada@example.com' });
    api({ 'col-todo': [task] }).always('GET', `/tasks/${task._id}`, json(200, { status: 'success', data: { task } }))
      .always('GET', `/tasks/${task._id}/comments`, json(200, { status: 'success', data: { comments: [] } }))
      .always('GET', `/tasks/${task._id}/activity`, json(200, { status: 'success', data: { activity: [] } }))
      .always('GET', `/tasks/${task._id}/checklist`, json(200, { status: 'success', data: { items: [] } }));
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Read the brief' }, { timeout: 10_000 });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    expect(currentPath()).toBe('/boards/flow');
    await user.click(within(card).getByRole('button', { name: 'Cancel' }));
    await user.click(within(card).getByText('Assignor'));
    await waitFor(() => {
      expect(currentPath()).toBe(`/boards/flow/tasks/${task._id}`);
    });
  });
});

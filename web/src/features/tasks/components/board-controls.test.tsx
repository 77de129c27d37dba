import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { NARROW_SCREEN_QUERY } from '#web/lib/use-popover.ts';
import { listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, type Call } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';
import { SearchBox } from './board-toolbar.tsx';

/** Answers that follow the query: `q` matches the title, `view` and `sort` are only recorded. */
function board(tasks: { todo?: Task[]; done?: Task[] } = {}, overdue = 0) {
  const state = { todo: tasks.todo ?? [], done: tasks.done ?? [] };
  const pick = (call: Call, status: 'todo' | 'done') => {
    const q = call.query.get('q')?.toLowerCase();
    return state[status].filter((t) => !q || t.taskTitle.toLowerCase().includes(q));
  };
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', (call) => json(200, listAnswer(pick(call, call.query.get('status') === 'done' ? 'done' : 'todo'))))
    .always('GET', '/tasks/counts', (call) =>
      json(200, { status: 'success', data: { counts: { todo: pick(call, 'todo').length, done: pick(call, 'done').length, overdue } } }),
    );
  return { api, state };
}

async function openBoard(path = '/tasks') {
  const rendered = renderApp(path, { signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Tasks' });
  return rendered;
}

const todoColumn = () => screen.getByRole('region', { name: 'Tasks To Do' });

describe('board search, sort and view', () => {
  it('searches after typing pauses, keeps the text in ?q=, and sends it to the API', async () => {
    const { api } = board({ todo: [makeTask({ taskTitle: 'Pay the invoice' }), makeTask({ taskTitle: 'Book a room' })] });
    await openBoard();
    await within(todoColumn()).findByRole('article', { name: 'Book a room' });

    // Letter by letter in one go (a fast typist): the debounce sees one pause, at the end.
    const box = screen.getByRole('searchbox', { name: 'Search tasks' });
    for (let i = 1; i <= 'invoice'.length; i++) fireEvent.change(box, { target: { value: 'invoice'.slice(0, i) } });
    expect(box).toHaveValue('invoice');
    await waitFor(() => {
      expect(currentPath()).toBe('/tasks?q=invoice');
    });
    await waitFor(() => {
      expect(within(todoColumn()).queryByRole('article', { name: 'Book a room' })).not.toBeInTheDocument();
    });
    expect(within(todoColumn()).getByRole('article', { name: 'Pay the invoice' })).toBeInTheDocument();
    // One search for the whole word, not one per letter.
    const searches = api.callsTo('GET', '/tasks').filter((c) => c.query.has('q'));
    expect(searches.map((c) => c.query.get('q'))).toEqual(['invoice', 'invoice']);
    expect(api.callsTo('GET', '/tasks/counts').some((c) => c.query.get('q') === 'invoice')).toBe(true);
  });

  it('starts from the URL: the box shows ?q=, the select ?sort=, whose tasks ?show=', async () => {
    const { api } = board({ todo: [makeTask({ taskTitle: 'Pay the invoice' })] });
    await openBoard('/tasks?q=invoice&sort=deadline&show=assigned-to-me&priority=high');
    expect(screen.getByRole('searchbox', { name: 'Search tasks' })).toHaveValue('invoice');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('deadline');
    const views = screen.getByRole('group', { name: 'Show tasks' });
    expect(within(views).getByRole('button', { name: 'Assigned to me' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => {
      expect(api.callsTo('GET', '/tasks').length).toBeGreaterThanOrEqual(2);
    });
    const first = api.callsTo('GET', '/tasks')[0];
    expect(first?.query.get('q')).toBe('invoice');
    expect(first?.query.get('sort')).toBe('deadline');
    expect(first?.query.get('view')).toBe('assigned-to-me');
    expect(first?.query.get('priority')).toBe('high');
  });

  it('understands an old address’s ?view= of whose tasks, and rewrites it as ?show= in place', async () => {
    const { api } = board({ todo: [makeTask({ taskTitle: 'Pay the invoice' })] });
    await openBoard('/tasks?q=invoice&view=created-by-me&sort=deadline');
    const views = screen.getByRole('group', { name: 'Show tasks' });
    expect(within(views).getByRole('button', { name: 'Created by me' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => {
      expect(currentPath()).toBe('/tasks?q=invoice&show=created-by-me&sort=deadline');
    });
    // Every list and count asked for that filter; the API keeps its `view` parameter.
    await waitFor(() => {
      expect(api.callsTo('GET', '/tasks').length).toBeGreaterThanOrEqual(2);
    });
    expect(api.callsTo('GET', '/tasks').every((c) => c.query.get('view') === 'created-by-me')).toBe(true);
    expect(api.callsTo('GET', '/tasks/counts').every((c) => c.query.get('view') === 'created-by-me')).toBe(true);
  });

  it('sorts and switches view through the URL, keeping the priority filter', async () => {
    const { api } = board({ todo: [makeTask({ taskTitle: 'Anything' })] });
    const { user } = await openBoard('/tasks?priority=urgent');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Priority');
    expect(currentPath()).toBe('/tasks?priority=urgent&sort=priority');
    await user.click(within(screen.getByRole('group', { name: 'Show tasks' })).getByRole('button', { name: 'Created by me' }));
    expect(currentPath()).toBe('/tasks?priority=urgent&sort=priority&show=created-by-me');
    await waitFor(() => {
      expect(
        api.callsTo('GET', '/tasks').some((c) => c.query.get('view') === 'created-by-me' && c.query.get('sort') === 'priority' && c.query.get('priority') === 'urgent'),
      ).toBe(true);
    });
    // Back to the defaults: they leave the URL.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Newest');
    await user.click(within(screen.getByRole('group', { name: 'Show tasks' })).getByRole('button', { name: 'All' }));
    expect(currentPath()).toBe('/tasks?priority=urgent');
  });

  it('says when nothing matches the search', async () => {
    board({ todo: [makeTask({ taskTitle: 'Pay the invoice' })] });
    await openBoard('/tasks?q=zebra');
    expect(await within(todoColumn()).findByText('No tasks match “zebra”')).toBeInTheDocument();
  });

  it('shows the overdue count in the header', async () => {
    board({}, 3);
    await openBoard();
    expect(await screen.findByTestId('overdue-count')).toHaveTextContent('3 overdue');
  });
});

it('clears the search with Esc in the box', async () => {
  board({ todo: [makeTask({ taskTitle: 'Pay the invoice' })] });
  const { user } = await openBoard('/tasks?q=invoice');
  const box = screen.getByRole('searchbox', { name: 'Search tasks' });
  await user.click(box);
  await user.keyboard('{Escape}');
  expect(box).toHaveValue('');
  await waitFor(() => {
    expect(currentPath()).toBe('/tasks');
  });
});

describe('reopen and the task link on cards', () => {
  it('reopens a done task with PATCH {status: "todo"}', async () => {
    const task = makeTask({ taskTitle: 'Done already', status: 'done' });
    const { api, state } = board({ done: [task] });
    const { user } = await openBoard();
    const card = await within(screen.getByRole('region', { name: 'Completed' })).findByRole('article', { name: 'Done already' });
    api.on('PATCH', `/tasks/${task._id}`, () => {
      state.done = [];
      state.todo = [{ ...task, status: 'todo' }];
      return json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: state.todo[0] } });
    });
    await user.click(within(card).getByRole('button', { name: 'Reopen' }));
    expect(await within(todoColumn()).findByRole('article', { name: 'Done already' })).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ status: 'todo', version: 1 });
  });

  it('links each card title to its task page, keeping the board filters', async () => {
    const task = makeTask({ taskTitle: 'Open me' });
    board({ todo: [task] });
    await openBoard('/tasks?sort=deadline');
    const card = await within(todoColumn()).findByRole('article', { name: 'Open me' });
    expect(within(card).getByRole('link', { name: 'Open me' })).toHaveAttribute('href', `/tasks/${task._id}?sort=deadline`);
  });

  /** The board at /tasks?sort=deadline, searched for "open" since: the card "Open me" and its task's address now. */
  async function searchedBoard() {
    const task = makeTask({ taskTitle: 'Open me' });
    board({ todo: [task] });
    const { user } = await openBoard('/tasks?sort=deadline');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tasks' }), { target: { value: 'open' } });
    await waitFor(() => {
      expect(currentPath()).toBe('/tasks?sort=deadline&q=open');
    });
    const card = within(todoColumn()).getByRole('article', { name: 'Open me' });
    return { user, card, opened: `/tasks/${task._id}?sort=deadline&q=open` };
  }

  it('opens a card by its title with the filters of the moment; a modified or middle click is left to the browser', async () => {
    const { user, card, opened } = await searchedBoard();
    const title = within(card).getByRole('link', { name: 'Open me' });
    await waitFor(() => {
      expect(title).toHaveAttribute('href', opened);
    });
    fireEvent.click(title, { ctrlKey: true });
    fireEvent.click(title, { button: 1 });
    expect(currentPath()).toBe('/tasks?sort=deadline&q=open');
    await user.click(title);
    await waitFor(() => {
      expect(currentPath()).toBe(opened);
    });
  });

  it('opens a card by a click on it with the filters of the moment, read when it is clicked', async () => {
    const { user, card, opened } = await searchedBoard();
    await user.click(within(card).getByText('Assignor'));
    await waitFor(() => {
      expect(currentPath()).toBe(opened);
    });
  });
});

/** A phone: the narrow-screen media query matches (jsdom has no matchMedia of its own). */
function asPhone() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === NARROW_SCREEN_QUERY,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('on a phone: one row of a Filters button and a search icon', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens the filters in a dialog, moves focus in, writes choices to the URL, and Esc returns focus', async () => {
    asPhone();
    board({ todo: [makeTask({ taskTitle: 'Anything' })] });
    const { user } = await openBoard('/tasks?sort=deadline');
    expect(screen.queryByRole('combobox', { name: 'Sort by' })).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Filters, 1 active' });
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    const panel = screen.getByRole('dialog', { name: 'Filters' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', panel.id);
    expect(within(panel).getByRole('button', { name: 'All Tasks' })).toHaveFocus();
    await user.click(within(panel).getByRole('button', { name: 'High' }));
    expect(currentPath()).toBe('/tasks?sort=deadline&priority=high');
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Sort by' }), 'Newest');
    expect(currentPath()).toBe('/tasks?priority=high');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Filters' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filters, 1 active' })).toHaveFocus();
  });

  it('closes the filters on a press outside', async () => {
    asPhone();
    board();
    const { user } = await openBoard();
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByRole('dialog', { name: 'Filters' })).toBeInTheDocument();
    await user.click(screen.getByRole('heading', { level: 1, name: 'Tasks' }));
    expect(screen.queryByRole('dialog', { name: 'Filters' })).not.toBeInTheDocument();
  });

  it('opens the search from its icon, searches, and Esc clears and closes it', async () => {
    asPhone();
    board({ todo: [makeTask({ taskTitle: 'Pay the invoice' }), makeTask({ taskTitle: 'Book a room' })] });
    const { user } = await openBoard();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Search tasks' }));
    const box = screen.getByRole('searchbox', { name: 'Search tasks' });
    expect(box).toHaveFocus();
    await user.type(box, 'invoice');
    await waitFor(() => {
      expect(currentPath()).toBe('/tasks?q=invoice');
    });
    // Filled, it stays open when focus leaves.
    await user.click(screen.getByRole('heading', { level: 1, name: 'Tasks' }));
    expect(screen.getByRole('searchbox', { name: 'Search tasks' })).toHaveValue('invoice');

    await user.click(screen.getByRole('searchbox', { name: 'Search tasks' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(currentPath()).toBe('/tasks');
    expect(screen.getByRole('button', { name: 'Search tasks' })).toHaveFocus();
  });

  it('keeps a search from the URL open, and folds an empty one back into the icon', async () => {
    asPhone();
    board();
    const { user } = await openBoard('/tasks?q=zebra');
    expect(screen.getByRole('searchbox', { name: 'Search tasks' })).toHaveValue('zebra');
    await user.click(screen.getByRole('searchbox', { name: 'Search tasks' }));
    await user.clear(screen.getByRole('searchbox', { name: 'Search tasks' }));
    await user.click(screen.getByRole('heading', { level: 1, name: 'Tasks' }));
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(currentPath()).toBe('/tasks');
  });
});

it('keeps newer letters in the box when an older search reaches the URL late', async () => {
  const sent: string[] = [];
  const onSearch = (q: string) => {
    sent.push(q);
  };
  // The URL (the `value` prop) is left behind on purpose, as on a slow device.
  const withI18n = ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider>;
  const { rerender } = render(<SearchBox value="" onSearch={onSearch} />, { wrapper: withI18n });
  const box = screen.getByRole('searchbox', { name: 'Search tasks' });
  fireEvent.change(box, { target: { value: 'inv' } });
  await waitFor(() => {
    expect(sent).toEqual(['inv']);
  });
  fireEvent.change(box, { target: { value: 'invoice' } });
  await waitFor(() => {
    expect(sent).toEqual(['inv', 'invoice']);
  });
  rerender(<SearchBox value="inv" onSearch={onSearch} />);
  expect(box).toHaveValue('invoice');
  rerender(<SearchBox value="invoice" onSearch={onSearch} />);
  expect(box).toHaveValue('invoice');
  // A change from elsewhere (the back button) still shows.
  rerender(<SearchBox value="room" onSearch={onSearch} />);
  expect(box).toHaveValue('room');
});

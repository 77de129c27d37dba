import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { boardAnswer, boardsAnswer, countsAnswer, listAnswer, makeBoard, makeTask, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';
import { taskSelection } from '../api/task-selection.ts';
import { i18n } from '@lingui/core';

const TEAM = makeBoard({ _id: 'team', name: 'Launch team', role: 'admin' });
const [TO_DO_COLUMN, DONE_COLUMN] = TEAM.columns;

function api(tasks: Task[]) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, TEAM])))
    .always('GET', '/boards/team', json(200, boardAnswer(TEAM)))
    .always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [] } }))
    .always('GET', '/tasks', (call) => {
      // The board asks a column (a status) at a time; the table every task of the filter.
      const status = call.query.get('status');
      return json(200, listAnswer(status === null ? tasks : tasks.filter((t) => t.status === status)));
    })
    .always('GET', '/tasks/counts', json(200, countsAnswer(tasks.length, 0)));
}

const task = (overrides: Partial<Task>) => makeTask({ boardId: 'team', columnId: TO_DO_COLUMN?._id, ...overrides });

async function openTable(tasks: Task[]) {
  const fetch = api(tasks);
  const rendered = renderApp('/boards/team?view=table', { signedIn: true });
  const table = await screen.findByRole('table', { name: 'Tasks' }, { timeout: 10_000 });
  return { ...rendered, fetch, table };
}

/** The titles of the rows in the order shown. */
const titles = (table: HTMLElement) => within(table).getAllByRole('link').map((link) => link.textContent);

afterEach(() => {
  taskSelection.clear();
  onlineManager.setOnline(true);
});

describe('the table view', () => {
  it('shows the first page of tasks while the next is on its way, and offers "Select all" once all are in', async () => {
    const first = [task({ taskTitle: 'Alpha' }), task({ taskTitle: 'Bravo' })];
    const rest = [task({ taskTitle: 'Charlie' })];
    const held = Promise.withResolvers<undefined>();
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, TEAM])))
      .always('GET', '/boards/team', json(200, boardAnswer(TEAM)))
      .always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [] } }))
      .always('GET', '/tasks', async (call) => {
        if (call.query.get('cursor') !== 'page-2') return json(200, listAnswer(first, 'page-2'));
        await held.promise;
        return json(200, listAnswer(rest));
      })
      .always('GET', '/tasks/counts', json(200, countsAnswer(3, 0)));
    renderApp('/boards/team?view=table', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Tasks' }, { timeout: 10_000 });
    expect(titles(table)).toEqual(['Alpha', 'Bravo']);
    expect(screen.getByText('Loading more tasks… 2 so far.')).toHaveAttribute('role', 'status');
    expect(within(table).getByRole('checkbox', { name: 'Select all 2' })).toBeDisabled();

    held.resolve(undefined);
    await waitFor(() => {
      expect(titles(table)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    });
    expect(table).toHaveAttribute('aria-rowcount', '4');
    expect(screen.queryByText(/Loading more tasks/)).not.toBeInTheDocument();
    expect(within(table).getByRole('checkbox', { name: 'Select all 3' })).toBeEnabled();
  });

  it('sorts by a header, ascending then descending, and says so with aria-sort', async () => {
    const { user, table } = await openTable([
      task({ taskTitle: 'Bravo', priority: 'low' }),
      task({ taskTitle: 'Alpha', priority: 'urgent' }),
      task({ taskTitle: 'Charlie', priority: 'high', columnId: DONE_COLUMN?._id, status: 'done' }),
    ]);
    expect(table).toHaveAttribute('aria-rowcount', '4');
    expect(titles(table)).toEqual(['Bravo', 'Alpha', 'Charlie']);
    const title = within(table).getByRole('columnheader', { name: /Title/ });
    await user.click(within(title).getByRole('button', { name: 'Title' }));
    expect(titles(table)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(title).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(title).getByRole('button', { name: 'Title' }));
    expect(titles(table)).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(title).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(table).getByRole('button', { name: 'Priority' }));
    expect(titles(table)).toEqual(['Alpha', 'Charlie', 'Bravo']);
    expect(title).not.toHaveAttribute('aria-sort');
    expect(within(table).getAllByRole('row')[1]).toHaveAttribute('aria-rowindex', '2');
    expect(within(within(table).getAllByRole('row')[2]!).getByText('Completed')).toBeInTheDocument();
  });

  describe('the Checklist and Last change columns', () => {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    // Listed with the task without a checklist first: it goes last whichever way Checklist is sorted.
    const openFive = () =>
      openTable([
        task({ taskTitle: 'Bravo', updatedAt: ago(5) }),
        task({ taskTitle: 'Alpha', checklist: { done: 1, total: 2 }, updatedAt: ago(180) }),
        task({ taskTitle: 'Charlie', checklist: { done: 2, total: 2 }, updatedAt: ago(2 * 24 * 60) }),
        task({ taskTitle: 'Delta', checklist: { done: 2, total: 4 }, updatedAt: ago(60) }),
        task({ taskTitle: 'Echo', checklist: { done: 0, total: 3 }, updatedAt: ago(10 * 24 * 60) }),
      ]);
    const rowOf = (table: HTMLElement, title: string) => within(table).getByRole('link', { name: title }).closest('tr')!;

    it('show the checklist as “1/2” (nothing without one) and the last change as a relative time with the full date', async () => {
      const { table } = await openFive();
      const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
      expect(headers.slice(5, 8)).toEqual(['Labels', 'Checklist', 'Last change']);

      const alpha = rowOf(table, 'Alpha');
      expect(within(alpha).getByText('1/2')).toHaveAttribute('aria-hidden', 'true');
      expect(within(alpha).getByRole('cell', { name: '1 of 2 checklist items done' })).toHaveClass('table-view__col--checklist');
      const changed = within(alpha).getByText('3 hours ago');
      expect(changed.tagName).toBe('TIME');
      expect(changed).toHaveAttribute('dateTime', expect.stringMatching(/^\d{4}-/) as string);
      expect(changed.getAttribute('title')).toMatch(/\d{4}/);

      const bravo = rowOf(table, 'Bravo');
      expect(bravo.querySelector('.table-view__col--checklist')).toBeEmptyDOMElement();
      expect(within(bravo).getByText('5 minutes ago')).toBeInTheDocument();
    });

    it('sort by the share of items done, then the number of items, a task without a checklist last both ways', async () => {
      const { user, table } = await openFive();
      const header = within(table).getByRole('columnheader', { name: /Checklist/ });
      await user.click(within(header).getByRole('button', { name: 'Checklist' }));
      expect(header).toHaveAttribute('aria-sort', 'ascending');
      expect(titles(table)).toEqual(['Echo', 'Alpha', 'Delta', 'Charlie', 'Bravo']);
      await user.click(within(header).getByRole('button', { name: 'Checklist' }));
      expect(header).toHaveAttribute('aria-sort', 'descending');
      expect(titles(table)).toEqual(['Charlie', 'Delta', 'Alpha', 'Echo', 'Bravo']);
    });

    it('sort by the last change from the keyboard as by a click, the newest first when descending', async () => {
      const { user, table } = await openFive();
      const header = within(table).getByRole('columnheader', { name: /Last change/ });
      within(header).getByRole('button', { name: 'Last change' }).focus();
      await user.keyboard('{Enter}');
      expect(header).toHaveAttribute('aria-sort', 'ascending');
      expect(titles(table)).toEqual(['Echo', 'Charlie', 'Alpha', 'Delta', 'Bravo']);
      await user.keyboard(' ');
      expect(header).toHaveAttribute('aria-sort', 'descending');
      expect(titles(table)).toEqual(['Bravo', 'Delta', 'Alpha', 'Charlie', 'Echo']);
    });
  });

  it('edits a priority in place: Enter saves through the task update, a refusal shows the server’s message and puts the old value back', async () => {
    const report = task({ taskTitle: 'Write the report', priority: 'low' });
    const { user, fetch, table } = await openTable([report]);
    fetch.on('PATCH', `/tasks/${report._id}`, (call) => json(200, { status: 'success', message: 'Saved.', data: { task: { ...report, ...(call.body as object), version: 2 } } }));
    await user.click(within(table).getByRole('button', { name: /edit priority of “Write the report”/ }));
    await user.selectOptions(within(table).getByRole('combobox', { name: 'Priority of “Write the report”' }), 'high');
    await user.keyboard('{Enter}');
    expect(await within(table).findByRole('button', { name: /^High\s*— edit priority/ })).toHaveFocus();
    expect(fetch.callsTo('PATCH', `/tasks/${report._id}`)[0]?.body).toEqual({ priority: 'high', version: 1 });

    fetch.on('PATCH', `/tasks/${report._id}`, json(400, { status: 'fail', code: 'VALIDATION', message: 'The assignee must be an e-mail address.' }));
    await user.click(within(table).getByRole('button', { name: /edit assignee of “Write the report”/ }));
    const input = within(table).getByRole('textbox', { name: 'Assignee of “Write the report”' });
    await user.clear(input);
    await user.type(input, 'nobody{Enter}');
    expect(await screen.findByText('Couldn’t save “Write the report”. The assignee must be an e-mail address.')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: /^bob@example\.com\s*— edit assignee/ })).toBeInTheDocument();
  });

  it('cancels an edit with Esc, sending nothing', async () => {
    const report = task({ taskTitle: 'Write the report' });
    const { user, fetch, table } = await openTable([report]);
    await user.click(within(table).getByRole('button', { name: 'Edit title of “Write the report”' }));
    await user.type(within(table).getByRole('textbox', { name: 'Title of “Write the report”' }), ' again{Escape}');
    expect(within(table).getByRole('link', { name: 'Write the report' })).toBeInTheDocument();
    expect(fetch.callsTo('PATCH', `/tasks/${report._id}`)).toHaveLength(0);
  });

  it('moves between rows with the arrows, selects with Space and opens a task with Enter', async () => {
    const first = task({ taskTitle: 'First' });
    const second = task({ taskTitle: 'Second' });
    const { user, table } = await openTable([first, second]);
    const [, row1, row2] = within(table).getAllByRole('row');
    if (!row1 || !row2) throw new Error('Two rows expected.');
    row1.focus();
    await user.keyboard('{ArrowDown}');
    expect(row2).toHaveFocus();
    await user.keyboard(' ');
    expect(row2).toHaveAttribute('aria-selected', 'true');
    expect(within(row2).getByRole('checkbox', { name: 'Select “Second”' })).toBeChecked();
    await user.keyboard('{Enter}');
    await waitFor(() => {
      expect(currentPath()).toBe(`/boards/team/tasks/${second._id}?view=table`);
    });
  });

  it('selects a range with Shift+click, and every task of the filter with “Select all”', async () => {
    const tasks = ['One', 'Two', 'Three', 'Four', 'Five'].map((taskTitle) => task({ taskTitle }));
    const { user, table } = await openTable(tasks);
    await user.click(within(table).getByRole('checkbox', { name: 'Select “Two”' }));
    await user.keyboard('{Shift>}');
    await user.click(within(table).getByRole('checkbox', { name: 'Select “Four”' }));
    await user.keyboard('{/Shift}');
    const checked = () => within(table).getAllByRole('checkbox', { checked: true }).map((box) => box.getAttribute('aria-label'));
    expect(checked()).toEqual(['Select “Two”', 'Select “Three”', 'Select “Four”']);
    await user.click(within(table).getByRole('checkbox', { name: 'Select all 5' }));
    expect(taskSelection.get().ids.size).toBe(5);
  });
});

describe('the bulk bar', () => {
  const bulkAnswer = (tasks: Task[], message = i18n._(SERVER_MESSAGES.tasksChanged(tasks.length))) => json(200, { status: 'success', message, data: { tasks } });

  it('says when the change left a column over its WIP limit, after the count', async () => {
    const a = task({ taskTitle: 'Alpha' });
    const b = task({ taskTitle: 'Bravo' });
    const { user, fetch, table } = await openTable([a, b]);
    await user.click(within(table).getByRole('checkbox', { name: 'Select all 2' }));
    const warning = i18n._(COLUMN_MESSAGES.overLimit('Completed', 2, 1));
    fetch.on('POST', '/tasks/bulk', () => bulkAnswer([a, b].map((t) => ({ ...t, columnId: DONE_COLUMN?._id ?? '', status: 'done', version: 2 })), warning));
    const bar = screen.getByRole('region', { name: 'Change the selected tasks' });
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Move to column' }), DONE_COLUMN?._id ?? '');
    expect(await screen.findByText((text) => text.startsWith(`2 tasks changed. ${warning}`))).toHaveAttribute('role', 'status');
  });

  it('sets the priority of the selected tasks in one request, then undoes it with one request per previous value', async () => {
    const a = task({ taskTitle: 'Alpha', priority: 'high' });
    const b = task({ taskTitle: 'Bravo', priority: 'low' });
    const c = task({ taskTitle: 'Charlie', priority: 'high' });
    const { user, fetch, table } = await openTable([a, b, c]);
    await user.click(within(table).getByRole('checkbox', { name: 'Select “Alpha”' }));
    await user.keyboard('{Shift>}');
    await user.click(within(table).getByRole('checkbox', { name: 'Select “Charlie”' }));
    await user.keyboard('{/Shift}');
    const bar = screen.getByRole('region', { name: 'Change the selected tasks' });
    expect(within(bar).getByText('3 selected')).toBeInTheDocument();

    fetch.on('POST', '/tasks/bulk', (call) => {
      const { taskIds } = call.body as { taskIds: string[] };
      return bulkAnswer([a, b, c].filter((t) => taskIds.includes(t._id)).map((t) => ({ ...t, priority: 'urgent', version: 2 })));
    });
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Priority' }), 'urgent');
    expect(await screen.findByText(/3 tasks changed/)).toBeInTheDocument();
    expect(fetch.callsTo('POST', '/tasks/bulk').map((call) => call.body)).toEqual([{ taskIds: [a._id, b._id, c._id], change: { priority: 'urgent' } }]);
    expect(within(table).getAllByRole('button', { name: /^Urgent\s*— edit priority/ })).toHaveLength(3);
    expect(screen.queryByRole('region', { name: 'Change the selected tasks' })).not.toBeInTheDocument();

    fetch.on('POST', '/tasks/bulk', () => bulkAnswer([a, c, b].map((t) => ({ ...t, priority: 'urgent', version: 2 }))));
    fetch.on('POST', '/tasks/bulk', () => bulkAnswer([a, c].map((t) => ({ ...t, version: 3 }))));
    fetch.on('POST', '/tasks/bulk', () => bulkAnswer([{ ...b, version: 3 }]));
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('3 tasks put back');
    // Each with the versions the change's answer gave: a task changed since would be refused.
    // First the change itself again (it changes nothing), checking them all in one request.
    expect(fetch.callsTo('POST', '/tasks/bulk').slice(1).map((call) => call.body)).toEqual([
      { taskIds: [a._id, c._id, b._id], change: { priority: 'urgent' }, versions: [2, 2, 2] },
      { taskIds: [a._id, c._id], change: { priority: 'high' }, versions: [2, 2] },
      { taskIds: [b._id], change: { priority: 'low' }, versions: [2] },
    ]);
    expect(within(table).getAllByRole('button', { name: /^High\s*— edit priority/ })).toHaveLength(2);
  });

  it('does not undo over someone else’s later change: says which task, and shows it as they left it', async () => {
    const a = task({ taskTitle: 'Alpha', priority: 'high' });
    const b = task({ taskTitle: 'Bravo', priority: 'normal' });
    const { user, fetch, table } = await openTable([a, b]);
    await user.click(within(table).getByRole('checkbox', { name: 'Select all 2' }));
    fetch.on('POST', '/tasks/bulk', () => bulkAnswer([a, b].map((t) => ({ ...t, priority: 'urgent', version: 2 }))));
    const bar = screen.getByRole('region', { name: 'Change the selected tasks' });
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Priority' }), 'urgent');
    expect(await screen.findByText(/2 tasks changed/)).toBeInTheDocument();

    // Meanwhile someone else set Bravo to low: the server refuses the undo, writing nothing.
    const theirs = { ...b, priority: 'low' as const, version: 3 };
    fetch.on(
      'POST',
      '/tasks/bulk',
      json(409, { status: 'fail', code: 'CONFLICT', message: `Task “Bravo”: ${SERVER_MESSAGES.taskConflict}`, data: { taskId: b._id, task: theirs } }),
    );
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not undone: “Bravo” was changed by someone else since.');
    // Refused at the check that comes first: no request put anything back (Alpha's neither).
    expect(fetch.callsTo('POST', '/tasks/bulk').slice(1).map((call) => call.body)).toEqual([{ taskIds: [a._id, b._id], change: { priority: 'urgent' }, versions: [2, 2] }]);
    expect(screen.queryByText(/put back/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
    // Alpha stays as the change left it; Bravo shows the other person's change.
    await waitFor(() => {
      expect(within(table).getByRole('button', { name: /^Low\s*— edit priority/ })).toBeInTheDocument();
    });
    expect(within(table).getAllByRole('button', { name: /^Urgent\s*— edit priority/ })).toHaveLength(1);
  });

  it('shows the server’s refusal, naming the task, and changes nothing', async () => {
    const a = task({ taskTitle: 'Alpha' });
    const b = task({ taskTitle: 'Bravo' });
    const { user, fetch, table } = await openTable([a, b]);
    await user.click(within(table).getByRole('checkbox', { name: 'Select all 2' }));
    fetch.on('POST', '/tasks/bulk', json(403, { status: 'fail', code: 'FORBIDDEN', message: 'You may not change “Bravo”.', data: { taskId: b._id } }));
    const bar = screen.getByRole('region', { name: 'Change the selected tasks' });
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Move to column' }), DONE_COLUMN?._id ?? '');
    expect(await screen.findByText('You may not change “Bravo”.')).toBeInTheDocument();
    expect(within(table).getAllByText('Tasks To Do')).toHaveLength(2);
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();
  });

  it('asks before deleting, saying it cannot be undone', async () => {
    const a = task({ taskTitle: 'Alpha' });
    const { user, fetch, table } = await openTable([a]);
    await user.click(within(table).getByRole('checkbox', { name: 'Select “Alpha”' }));
    await user.click(within(screen.getByRole('region', { name: 'Change the selected tasks' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete 1 task?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    fetch.on('POST', '/tasks/bulk', json(200, { status: 'success', message: 'Deleted.', data: { deleted: 1 } }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 task' }));
    expect(await screen.findByText('1 task deleted')).toBeInTheDocument();
    expect(fetch.callsTo('POST', '/tasks/bulk')[0]?.body).toEqual({ taskIds: [a._id], change: { delete: true } });
    await waitFor(() => {
      expect(within(table).queryByRole('link', { name: 'Alpha' })).not.toBeInTheDocument();
    });
  });

  it('offline, disables its actions and says they need a connection', async () => {
    const { user, table } = await openTable([task({ taskTitle: 'Alpha' })]);
    await user.click(within(table).getByRole('checkbox', { name: 'Select “Alpha”' }));
    act(() => {
      onlineManager.setOnline(false);
    });
    const bar = screen.getByRole('region', { name: 'Change the selected tasks' });
    expect(within(bar).getByText('Changes to many tasks need a connection')).toBeInTheDocument();
    expect(within(bar).getByRole('combobox', { name: 'Priority' })).toBeDisabled();
    expect(within(bar).getByRole('button', { name: 'Delete' })).toBeDisabled();
  });
});

describe('cards on the board', () => {
  it('are selected by Shift+click instead of opening, and show the bar', async () => {
    const a = task({ taskTitle: 'Alpha' });
    api([a]);
    const { user } = renderApp('/boards/team', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Alpha' }, { timeout: 10_000 });
    await user.keyboard('{Shift>}');
    await user.click(card);
    await user.keyboard('{/Shift}');
    expect(card).toHaveAttribute('data-selected', 'true');
    expect(within(card).getByText('Selected.')).toHaveClass('visually-hidden');
    expect(within(screen.getByRole('region', { name: 'Change the selected tasks' })).getByText('1 selected')).toBeInTheDocument();
    expect(currentPath()).toBe('/boards/team');
  });
});

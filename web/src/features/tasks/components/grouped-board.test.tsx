import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { boardAnswer, boardsAnswer, countsAnswer, listAnswer, makeBoard, makeTask, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';

const TEAM = makeBoard({ _id: 'team', name: 'Launch team', role: 'admin' });
const [TO_DO_COLUMN, DONE_COLUMN] = TEAM.columns;
const BUG = { _id: 'l-bug', name: 'bug', color: 'blue' as const };
const DOCS = { _id: 'l-docs', name: 'Docs', color: 'green' as const };

function api(tasks: Task[]) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, TEAM])))
    .always('GET', '/boards/team', json(200, boardAnswer(TEAM)))
    .always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [BUG, DOCS] } }))
    .always('GET', '/tasks', (call) => {
      const status = call.query.get('status');
      return json(200, listAnswer(status === null ? tasks : tasks.filter((t) => t.status === status)));
    })
    .always('GET', '/tasks/counts', json(200, countsAnswer(tasks.length, 0)));
}

const task = (overrides: Partial<Task>) => makeTask({ boardId: 'team', columnId: TO_DO_COLUMN?._id, ...overrides });

/** A lane by its name: its section, named by its header. */
const lane = (name: RegExp) => screen.getByRole('region', { name });

describe('the board grouped into lanes', () => {
  it('shows a lane per priority with its count, each card in its lane and column; a lane collapses and expands', async () => {
    api([
      task({ taskTitle: 'Fix the login', priority: 'urgent' }),
      task({ taskTitle: 'Write the notes', priority: 'low' }),
      task({ taskTitle: 'Ship it', priority: 'low', status: 'done', columnId: DONE_COLUMN?._id }),
    ]);
    const { user } = renderApp('/boards/team?group=priority', { signedIn: true });
    const urgentToggle = await screen.findByRole('button', { name: /Urgent, 1 task/ }, { timeout: 10_000 });
    expect(urgentToggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: /High, 0 tasks/ })).toBeInTheDocument();
    const low = lane(/^Low/);
    expect(within(low).getByRole('button', { name: /Low, 2 tasks/ })).toBeInTheDocument();
    expect(within(within(low).getByRole('group', { name: 'Low, Tasks To Do' })).getByRole('article', { name: 'Write the notes' })).toBeInTheDocument();
    expect(within(within(low).getByRole('group', { name: 'Low, Completed' })).getByRole('article', { name: 'Ship it' })).toBeInTheDocument();
    expect(within(lane(/^Urgent/)).getByRole('article', { name: 'Fix the login' })).toBeInTheDocument();

    await user.click(urgentToggle);
    expect(urgentToggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('article', { name: 'Fix the login' })).not.toBeInTheDocument();
    await user.click(urgentToggle);
    expect(await screen.findByRole('article', { name: 'Fix the login' })).toBeInTheDocument();
  });

  it('remembers collapsed lanes on the device, per board and grouping field, through a reload', async () => {
    const fetch = api([task({ taskTitle: 'Fix the login', priority: 'urgent' }), task({ taskTitle: 'Write the notes', priority: 'low' })]);
    const first = renderApp('/boards/team?group=priority', { signedIn: true });
    await first.user.click(await screen.findByRole('button', { name: /Urgent, 1 task/ }, { timeout: 10_000 }));
    expect(screen.queryByRole('article', { name: 'Fix the login' })).not.toBeInTheDocument();
    first.unmount();

    // Opened again (a new page load asks who is signed in again): the lane is still collapsed, the others open.
    fetch.on('GET', '/users/me', json(200, meAnswer()));
    renderApp('/boards/team?group=priority', { signedIn: true });
    expect(await screen.findByRole('button', { name: /Urgent, 1 task/ }, { timeout: 10_000 })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: /Low, 1 task/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByRole('article', { name: 'Fix the login' })).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Write the notes' })).toBeInTheDocument();
    cleanup();

    // Grouped by another field, nothing is collapsed.
    fetch.on('GET', '/users/me', json(200, meAnswer()));
    renderApp('/boards/team?group=assignee', { signedIn: true });
    expect(await screen.findByRole('button', { name: /bob@example.com, 2 tasks/ }, { timeout: 10_000 })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('article', { name: 'Fix the login' })).toBeInTheDocument();
  });

  it('puts a task with two labels in both label lanes; the Group select writes ?group=', async () => {
    api([task({ taskTitle: 'Both', labels: [BUG, DOCS] }), task({ taskTitle: 'Plain' })]);
    const { user } = renderApp('/boards/team', { signedIn: true });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Group' }, { timeout: 10_000 }), 'label');
    expect(currentPath()).toContain('group=label');
    expect(await screen.findByRole('button', { name: /bug, 1 task/ })).toBeInTheDocument();
    expect(within(lane(/^bug/)).getByRole('article', { name: 'Both' })).toBeInTheDocument();
    expect(within(lane(/^Docs/)).getByRole('article', { name: 'Both' })).toBeInTheDocument();
    expect(within(lane(/^No label/)).getByRole('article', { name: 'Plain' })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Group' }), 'none');
    expect(currentPath()).not.toContain('group=');
  });

  it('Alt+Down on a card moves it to the lane below: the priority is changed through the task update', async () => {
    const report = task({ taskTitle: 'Write the report', priority: 'urgent', assignee: 'ada@example.com' });
    const server = [report];
    const fetch = api(server);
    fetch.on('PATCH', `/tasks/${report._id}`, (call) => {
      server[0] = { ...report, ...(call.body as object), version: 2 };
      return json(200, { status: 'success', message: 'Saved.', data: { task: server[0] } });
    });
    const { user } = renderApp('/boards/team?group=priority', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Write the report' }, { timeout: 10_000 });
    card.focus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(() => {
      expect(fetch.callsTo('PATCH', `/tasks/${report._id}`)[0]?.body).toEqual({ priority: 'high', version: 1 });
    });
    const moved = await within(lane(/^High/)).findByRole('article', { name: 'Write the report' });
    // Still focused, so the next press goes on from there.
    await waitFor(() => {
      expect(moved).toHaveFocus();
    });
  });

  it('a refused lane change shows the server’s message and puts the card back in its lane', async () => {
    const report = task({ taskTitle: 'Write the report', priority: 'urgent', assignee: 'ada@example.com' });
    const fetch = api([report]);
    fetch.on('PATCH', `/tasks/${report._id}`, json(403, { status: 'fail', code: 'FORBIDDEN', message: 'You may not change this task.' }));
    const { user } = renderApp('/boards/team?group=priority', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Write the report' }, { timeout: 10_000 });
    card.focus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(await screen.findByText(/You may not change this task\./)).toBeInTheDocument();
    expect(within(lane(/^Urgent/)).getByRole('article', { name: 'Write the report' })).toBeInTheDocument();
    expect(within(lane(/^High/)).queryByRole('article', { name: 'Write the report' })).not.toBeInTheDocument();
  });

  it('Alt+Right moves a card to the next column in its lane through the move', async () => {
    const report = task({ taskTitle: 'Write the report', priority: 'urgent', assignee: 'ada@example.com' });
    const server = [report];
    const fetch = api(server);
    fetch.on('POST', `/tasks/${report._id}/move`, () => {
      const moved = { ...report, columnId: DONE_COLUMN?._id ?? '', status: 'done' as const, version: 2 };
      server[0] = moved;
      return json(200, { status: 'success', message: 'The task was moved.', data: { task: moved } });
    });
    const { user } = renderApp('/boards/team?group=priority', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Write the report' }, { timeout: 10_000 });
    card.focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(await within(within(lane(/^Urgent/)).getByRole('group', { name: 'Urgent, Completed' })).findByRole('article', { name: 'Write the report' })).toBeInTheDocument();
    await waitFor(() => {
      expect(fetch.callsTo('POST', `/tasks/${report._id}/move`)[0]?.body).toEqual({ columnId: DONE_COLUMN?._id, afterId: null, version: 1 });
    });
    expect(screen.getByTestId('move-announcer')).toHaveTextContent('Moved ‘Write the report’ to Urgent, Completed');
  });
});

describe('the table grouped', () => {
  it('shows a header row per assignee with its count, sorts within groups, and collapses a group', async () => {
    api([
      task({ taskTitle: 'Bravo', assignee: 'zoe@example.com' }),
      task({ taskTitle: 'Alpha', assignee: 'zoe@example.com' }),
      task({ taskTitle: 'Charlie', assignee: 'amy@example.com' }),
    ]);
    const { user } = renderApp('/boards/team?view=table&group=assignee', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Tasks' }, { timeout: 10_000 });
    const titles = () => within(table).getAllByRole('link').map((link) => link.textContent);
    const amy = within(table).getByRole('button', { name: /amy@example.com, 1 task$/ });
    const zoe = within(table).getByRole('button', { name: /zoe@example.com, 2 tasks$/ });
    expect(titles()).toEqual(['Charlie', 'Bravo', 'Alpha']);
    await user.click(within(table).getByRole('button', { name: 'Title' }));
    expect(titles()).toEqual(['Charlie', 'Alpha', 'Bravo']);
    expect(table).toHaveAttribute('aria-rowcount', '6');
    await user.click(zoe);
    expect(zoe).toHaveAttribute('aria-expanded', 'false');
    expect(titles()).toEqual(['Charlie']);
    expect(amy).toHaveAttribute('aria-expanded', 'true');
  });

  it('keeps a collapsed group collapsed through a reload', async () => {
    const fetch = api([task({ taskTitle: 'Bravo', assignee: 'zoe@example.com' }), task({ taskTitle: 'Charlie', assignee: 'amy@example.com' })]);
    const first = renderApp('/boards/team?view=table&group=assignee', { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Tasks' }, { timeout: 10_000 });
    await first.user.click(within(table).getByRole('button', { name: /zoe@example.com, 1 task$/ }));
    first.unmount();

    fetch.on('GET', '/users/me', json(200, meAnswer()));
    renderApp('/boards/team?view=table&group=assignee', { signedIn: true });
    const again = await screen.findByRole('table', { name: 'Tasks' }, { timeout: 10_000 });
    expect(within(again).getByRole('button', { name: /zoe@example.com, 1 task$/ })).toHaveAttribute('aria-expanded', 'false');
    expect(within(again).getAllByRole('link').map((link) => link.textContent)).toEqual(['Charlie']);
  });
});

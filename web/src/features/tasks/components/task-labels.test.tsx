import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { boardAnswer, boardsAnswer, countsAnswer, listAnswer, makeBoard, makeTask, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';

const BUG: Label = { _id: 'l-bug', name: 'Bug', color: 'red' };
const UI: Label = { _id: 'l-ui', name: 'UI', color: 'blue' };

/** The task page of a task on the board "team", where the viewer has `role`. */
function taskOnTeam(task: Task, role: 'member' | 'viewer') {
  const team = makeBoard({ _id: 'team', name: 'Launch team', role });
  const state = { task };
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, team])))
    .always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [BUG, UI] } }))
    .always('GET', `/tasks/${task._id}`, () => json(200, { status: 'success', data: { task: state.task } }))
    .always('GET', `/tasks/${task._id}/comments`, json(200, { status: 'success', data: { comments: [] } }))
    .always('GET', `/tasks/${task._id}/activity`, json(200, { status: 'success', data: { activity: [] } }));
  return { api, state };
}

/** Opens the task's page, ticks "Bug" in the picker and closes it with Done. */
async function tickBugAndClose(task: Task) {
  const rendered = renderApp(`/tasks/${task._id}`, { signedIn: true });
  await screen.findByRole('heading', { level: 1, name: task.taskTitle }, { timeout: 5000 });
  await rendered.user.click(await screen.findByRole('button', { name: 'Edit labels' }));
  const panel = screen.getByRole('dialog', { name: 'Labels' });
  await rendered.user.click(await within(panel).findByRole('option', { name: 'Bug' }));
  await rendered.user.click(within(panel).getByRole('button', { name: 'Done' }));
  return rendered;
}

const labelsRow = () => screen.getByText('Labels', { selector: 'dt' }).nextElementSibling as HTMLElement;

describe("a task's labels", () => {
  it('show as chips on the task page; a viewer who is not the assignee gets no picker', async () => {
    const task = makeTask({ boardId: 'team', assignee: 'bob@example.com', labels: [BUG, UI] });
    taskOnTeam(task, 'viewer');
    renderApp(`/tasks/${task._id}`, { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: task.taskTitle }, { timeout: 5000 });
    await screen.findByText('Launch team');
    expect(within(within(labelsRow()).getByRole('list', { name: 'Labels' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Bug', 'UI']);
    expect(screen.queryByRole('button', { name: /labels/ })).toBeNull();
  });

  it('are saved from the picker as the whole set of ids, with the version, shown at once', async () => {
    const task = makeTask({ boardId: 'team', labels: [UI], version: 4 });
    const { api } = taskOnTeam(task, 'member');
    let answer!: (value: Response) => void;
    api.on('PATCH', `/tasks/${task._id}`, () => new Promise<Response>((resolve) => (answer = resolve)));
    await tickBugAndClose(task);

    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ labelIds: ['l-ui', 'l-bug'], version: 4 });
    // Before the answer: the new set, by name.
    expect(within(labelsRow()).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Bug', 'UI']);
    answer(json(200, { status: 'success', message: 'Task updated.', data: { task: { ...task, labels: [BUG, UI], version: 5 } } }));
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Edit labels' })).toBeEnabled();
    });
  });

  it('answered 409, show theirs and yours by name in the conflict dialog, and apply mine on their version', async () => {
    const task = makeTask({ boardId: 'team', labels: [UI], version: 4 });
    const theirs = { ...task, labels: [], version: 5 };
    const { api } = taskOnTeam(task, 'member');
    api.on('PATCH', `/tasks/${task._id}`, json(409, { status: 'fail', code: 'CONFLICT', message: 'The task has changed.', data: { task: theirs } }));
    const { user } = await tickBugAndClose(task);

    const dialog = await screen.findByRole('alertdialog', { name: 'This task changed while you were working on it' });
    const row = within(dialog)
      .getAllByRole('listitem')
      .find((item) => within(item).queryByRole('heading', { name: 'Labels' }));
    expect(row).toHaveTextContent('TheirsNone (was UI)');
    expect(row).toHaveTextContent('YoursBug, UI');
    api.on('PATCH', `/tasks/${task._id}`, json(200, { status: 'success', message: 'Task updated.', data: { task: { ...task, labels: [BUG, UI], version: 6 } } }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply mine on top' }));
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(2);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[1]?.body).toEqual({ labelIds: ['l-ui', 'l-bug'], version: 5 });
    await waitFor(() => {
      expect(within(labelsRow()).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Bug', 'UI']);
    });
  });

  it('filter the board by one label, in the address and in the requests', async () => {
    const team = makeBoard({ _id: 'team', name: 'Launch team' });
    const tagged = makeTask({ boardId: 'team', taskTitle: 'Tagged', labels: [BUG] });
    const api = mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, team])))
      .always('GET', '/boards/team', json(200, boardAnswer(team)))
      .always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [BUG, UI] } }))
      .always('GET', '/tasks', (call) => json(200, listAnswer(call.query.get('status') === 'done' ? [] : [tagged])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(1, 0)));
    const { user } = renderApp('/boards/team', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Tagged' }, { timeout: 5000 });
    expect(within(card).getByRole('list', { name: 'Labels' })).toHaveTextContent('Bug');

    const select = screen.getByRole('combobox', { name: 'Label' });
    await waitFor(() => {
      expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['All labels', 'Bug', 'UI']);
    });
    await user.selectOptions(select, 'Bug');
    expect(currentPath()).toBe('/boards/team?label=l-bug');
    await waitFor(() => {
      expect(api.callsTo('GET', '/tasks/counts').some((call) => call.query.get('label') === 'l-bug')).toBe(true);
    });
    expect(api.callsTo('GET', '/tasks').filter((call) => call.query.get('label') === 'l-bug').map((call) => call.query.get('board'))).toEqual(['team', 'team']);
    await user.selectOptions(select, 'All labels');
    expect(currentPath()).toBe('/boards/team');
  });
  it('can be picked in the new-task form, for the board the task goes to', async () => {
    const team = makeBoard({ _id: 'team', name: 'Launch team' });
    const api = mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, team])))
      .always('GET', '/boards/team', json(200, boardAnswer(team)))
      .always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [BUG, UI] } }))
      .always('GET', '/tasks', json(200, listAnswer([])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
    const { user } = renderApp('/boards/team', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Create Task' }, { timeout: 5000 }));
    const form = screen.getByRole('form', { name: 'New task' });
    await user.type(within(form).getByLabelText(/^Task title/), 'Tagged at birth');
    await user.type(within(form).getByLabelText(/^Assignee/), 'bob@example.com');
    const labels = await within(form).findByRole('group', { name: /^Labels/ });
    await user.click(within(labels).getByRole('button', { name: 'Add labels' }));
    const panel = within(labels).getByRole('dialog', { name: 'Labels' });
    await user.click(await within(panel).findByRole('option', { name: 'UI' }));
    // Enter in the filter box ticks; it never submits the form around it.
    await user.type(within(panel).getByRole('combobox'), 'bu{Enter}');
    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(within(labels).getByRole('list', { name: 'Labels' })).toHaveTextContent('UIBug');
    expect(api.callsTo('POST', '/tasks')).toHaveLength(0);

    const created = makeTask({ taskTitle: 'Tagged at birth', boardId: 'team', labels: [BUG, UI] });
    api.on('POST', '/tasks', json(201, { status: 'success', message: 'Task created.', data: { task: created } }));
    await user.click(within(form).getByRole('button', { name: 'Create Task' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/tasks')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/tasks')[0]?.body).toMatchObject({ taskTitle: 'Tagged at birth', boardId: 'team', labelIds: ['l-ui', 'l-bug'] });
    // The form empties for the next task, labels too.
    await waitFor(() => {
      expect(within(labels).queryByRole('list', { name: 'Labels' })).toBeNull();
    });
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';
import { toDateTimeLocal } from '../utils/deadline.ts';

function board() {
  const state: { todo: Task[] } = { todo: [] };
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', (call) => json(200, listAnswer(call.query.get('status') === 'todo' ? state.todo : [])))
    .always('GET', '/tasks/counts', () => json(200, countsAnswer(state.todo.length, 0)));
  return { api, state };
}

async function openPanel() {
  const rendered = renderApp('/tasks', { signedIn: true });
  // The first test of the file also loads the board's code (a lazy route): allow for it.
  const trigger = await screen.findByRole('button', { name: 'Create Task' }, { timeout: 5000 });
  await rendered.user.click(trigger);
  const dialog = screen.getByRole('dialog', { name: 'Create Task' });
  return { ...rendered, trigger, dialog };
}

describe('the Create Task panel (dialog)', () => {
  it('is a labelled modal dialog that takes focus', async () => {
    board();
    const { dialog } = await openPanel();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByLabelText(/Work title/)).toHaveFocus();
  });

  it('traps Tab and Shift+Tab inside', async () => {
    board();
    const { user, dialog } = await openPanel();
    const submit = within(dialog).getByRole('button', { name: 'Create Task' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    submit.focus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(submit).toHaveFocus();
    // Walk all the way round: focus never leaves the dialog.
    for (let i = 0; i < 10; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('closes on Esc and returns focus to "Create Task"', async () => {
    board();
    const { user, trigger } = await openPanel();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(trigger).toHaveFocus();
    });
  });

  it('closes with the close button and returns focus', async () => {
    board();
    const { user, trigger, dialog } = await openPanel();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(trigger).toHaveFocus();
    });
  });

  it('closes on a click on the overlay, not on a click inside', async () => {
    board();
    const { user, dialog } = await openPanel();
    await user.click(within(dialog).getByText('Assign work to anyone by e-mail address.'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    const overlay = screen.getByTestId('dialog-overlay');
    fireEvent.pointerDown(overlay);
    fireEvent.click(overlay);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the new-task form', () => {
  it('has the task fields, with Normal as the default priority', async () => {
    board();
    const { dialog } = await openPanel();
    expect(within(dialog).getByLabelText('Task title')).toBeRequired();
    expect(within(dialog).getByLabelText('Task title')).toHaveAttribute('minlength', '3');
    expect(within(dialog).getByLabelText('Assignee')).toHaveAttribute('type', 'email');
    const deadline = within(dialog).getByLabelText(/Deadline/);
    expect(deadline).toHaveAttribute('type', 'datetime-local');
    expect(deadline.getAttribute('min')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(within(dialog).getByLabelText('Priority')).toHaveValue('normal');
  });

  it.each([
    ['a blank title', '   ', 'bob@example.com'],
    ['an assignee shorter than 3 after trimming', 'Real title', '  ab  '],
  ])('says "Task Title and Assignee are required." for %s and sends nothing', async (_case, title, assignee) => {
    const { api } = board();
    const { user, dialog } = await openPanel();
    await user.type(within(dialog).getByLabelText('Task title'), title);
    await user.type(within(dialog).getByLabelText('Assignee'), assignee);
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(new RegExp(`^${CLIENT_MESSAGES.taskRequired}$`));
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('checks the title length and the assignee address', async () => {
    const { api } = board();
    const { user, dialog } = await openPanel();
    await user.type(within(dialog).getByLabelText('Task title'), 'ab');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByText('Task title must be at least 3 characters.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Task title')).toHaveFocus();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('refuses a deadline in the past', async () => {
    const { api } = board();
    const { user, dialog } = await openPanel();
    await user.type(within(dialog).getByLabelText('Task title'), 'Too late');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob@example.com');
    fireEvent.change(within(dialog).getByLabelText(/Deadline/), { target: { value: '2020-01-01T10:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByText('Deadline cannot be in the past.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('shows "Creating Task..." while busy, sends the deadline as UTC, then resets and refreshes', async () => {
    const { api, state } = board();
    const { user, dialog } = await openPanel();
    const local = new Date(Date.now() + 2 * 24 * 3600_000);
    local.setSeconds(0, 0);
    await user.type(within(dialog).getByLabelText(/Work title/), 'Launch');
    await user.type(within(dialog).getByLabelText('Task title'), '  Write the post  ');
    await user.type(within(dialog).getByLabelText('Assignee'), 'Bob@Example.com');
    fireEvent.change(within(dialog).getByLabelText(/Deadline/), { target: { value: toDateTimeLocal(local) } });
    await user.selectOptions(within(dialog).getByLabelText('Priority'), 'Urgent');

    let answer: (r: Response) => void = () => undefined;
    api.on('POST', '/tasks', () => new Promise<Response>((resolve) => (answer = resolve)));
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    const busy = await within(dialog).findByRole('button', { name: CLIENT_MESSAGES.creatingTask });
    // Busy, not disabled: focus stays on it (Esc still reaches the panel), and a second click sends nothing.
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveFocus();
    await user.click(busy);
    expect(api.callsTo('POST', '/tasks')).toHaveLength(1);

    expect(api.callsTo('POST', '/tasks')[0]?.body).toEqual({
      workTitle: 'Launch',
      taskTitle: 'Write the post',
      assignee: 'bob@example.com',
      deadline: local.toISOString(),
      priority: 'urgent',
    });
    const created = makeTask({ taskTitle: 'Write the post', priority: 'urgent' });
    state.todo = [created];
    answer(json(201, { status: 'success', message: SERVER_MESSAGES.taskCreated, data: { task: created } }));

    expect(await within(dialog).findByRole('status')).toHaveTextContent(SERVER_MESSAGES.taskCreated);
    expect(within(dialog).getByLabelText('Task title')).toHaveValue('');
    expect(within(dialog).getByLabelText('Assignee')).toHaveValue('');
    expect(within(dialog).getByLabelText('Priority')).toHaveValue('normal');
    expect(within(dialog).getByLabelText(/Work title/)).toHaveFocus();
    expect(screen.getByRole('article', { hidden: true, name: 'Write the post' })).toBeInTheDocument();
  });

  it('keeps the input and shows the server message on failure', async () => {
    const { api } = board();
    const { user, dialog } = await openPanel();
    await user.type(within(dialog).getByLabelText('Task title'), 'Keep my words');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Priority'), 'High');
    api.on(
      'POST',
      '/tasks',
      json(400, {
        status: 'fail',
        code: 'VALIDATION_FAILED',
        message: SERVER_MESSAGES.validationFailed,
        errors: [{ field: 'assignee', message: 'That address cannot receive tasks.' }],
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.validationFailed);
    expect(within(dialog).getByText('That address cannot receive tasks.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Task title')).toHaveValue('Keep my words');
    expect(within(dialog).getByLabelText('Assignee')).toHaveValue('bob@example.com');
    expect(within(dialog).getByLabelText('Priority')).toHaveValue('high');
  });

  it('sends a start with the deadline, refuses one after it, and shows the server’s word on the Start field', async () => {
    const { api } = board();
    const { user, dialog } = await openPanel();
    const deadline = new Date(Date.now() + 3 * 24 * 3600_000);
    deadline.setSeconds(0, 0);
    const start = new Date(deadline.getTime() - 24 * 3600_000);
    await user.type(within(dialog).getByLabelText('Task title'), 'Paint the fence');
    await user.type(within(dialog).getByLabelText('Assignee'), 'bob@example.com');
    fireEvent.change(within(dialog).getByLabelText(/Deadline/), { target: { value: toDateTimeLocal(deadline) } });
    fireEvent.change(within(dialog).getByLabelText(/Start/), { target: { value: toDateTimeLocal(new Date(deadline.getTime() + 3600_000)) } });
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByText('Start cannot be after the deadline.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Start/)).toHaveFocus();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/Start/), { target: { value: toDateTimeLocal(start) } });
    api.on('POST', '/tasks', json(400, { status: 'fail', code: 'VALIDATION_FAILED', message: SERVER_MESSAGES.validationFailed, errors: [{ field: 'startAt', message: 'Start cannot be after the deadline.' }] }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.validationFailed);
    expect(api.callsTo('POST', '/tasks')[0]?.body).toMatchObject({ deadline: deadline.toISOString(), startAt: start.toISOString() });
    expect(within(dialog).getByLabelText(/Start/)).toHaveAccessibleDescription(/Start cannot be after the deadline\./);
  });
});

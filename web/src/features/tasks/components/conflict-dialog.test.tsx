import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';

const conflict = (task: Task) => json(409, { status: 'fail', code: 'CONFLICT', message: 'The task has changed.', data: { task } });
const updated = (task: Task) => json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task } });

/** A board with one task; Alice's edit of its priority is answered 409 with `theirs`. */
async function editIntoConflict() {
  const task = makeTask({ taskTitle: 'Shared work', priority: 'normal' });
  const theirs = { ...task, priority: 'low' as const, assignee: 'carol@example.com', ...{ version: 2 } };
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', (call) => json(200, listAnswer(call.query.get('status') === 'done' ? [] : [task])))
    .always('GET', '/tasks/counts', json(200, countsAnswer(1, 0)))
    .on('PATCH', `/tasks/${task._id}`, conflict(theirs));
  const rendered = renderApp('/tasks', { signedIn: true });
  const card = await screen.findByRole('article', { name: 'Shared work' });
  await rendered.user.click(within(card).getByRole('button', { name: 'Edit' }));
  await rendered.user.selectOptions(within(card).getByLabelText('Priority'), 'Urgent');
  await rendered.user.click(within(card).getByRole('button', { name: 'Save' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'This task changed while you were working on it' });
  return { ...rendered, api, task, theirs, dialog };
}

const row = (dialog: HTMLElement, field: string) =>
  within(dialog)
    .getAllByRole('listitem')
    .find((item) => within(item).queryByRole('heading', { name: field }));

describe('the conflict dialog', () => {
  it('shows theirs and yours field by field, with the board already showing theirs', async () => {
    const { dialog, api, task } = await editIntoConflict();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(row(dialog, 'Priority')).toHaveTextContent('TheirsLow (was Normal)');
    expect(row(dialog, 'Priority')).toHaveTextContent('YoursUrgent');
    expect(row(dialog, 'Assignee')).toHaveTextContent('Theirscarol@example.com (was bob@example.com)');
    expect(row(dialog, 'Assignee')).toHaveTextContent('YoursNot changed by you');
    expect(row(dialog, 'Task title')).toBeUndefined();
    expect(within(dialog).getByRole('button', { name: 'Keep theirs' })).toHaveFocus();
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ priority: 'urgent', version: 1 });
    const card = screen.getByRole('article', { name: 'Shared work', hidden: true });
    expect(card).toHaveTextContent('Low priority');
    expect(card).toHaveTextContent('carol@example.com');
  });

  it('"Apply mine on top" sends the same change with their version', async () => {
    const { dialog, api, user, task, theirs } = await editIntoConflict();
    api.on('PATCH', `/tasks/${task._id}`, updated({ ...theirs, priority: 'urgent', ...{ version: 3 } }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply mine on top' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(2);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[1]?.body).toEqual({ priority: 'urgent', version: 2 });
    await waitFor(() => {
      expect(screen.getByRole('article', { name: 'Shared work' })).toHaveTextContent('Urgent priority');
    });
    expect(screen.getByRole('article', { name: 'Shared work' })).toHaveTextContent('carol@example.com');
  });

  it('"Keep theirs" (or Esc) sends nothing and returns focus', async () => {
    const { dialog, api, user, task } = await editIntoConflict();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(dialog).not.toBeInTheDocument();
    const card = screen.getByRole('article', { name: 'Shared work' });
    expect(card).toHaveTextContent('Low priority');
    expect(within(card).getByRole('button', { name: 'Edit' })).toHaveFocus();
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
  });
});

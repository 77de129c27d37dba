import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { attachmentUrl, thumbnailUrl } from '#shared/schemas/attachments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { ADA, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, noContent } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';

const BOB = { fullName: 'Bob Builder', email: 'bob@example.com' };

function comment(id: string, body: string, author = ADA) {
  const at = new Date(Date.now() - 3600_000).toISOString();
  return { _id: id, taskId: 't', body, author, createdAt: at, updatedAt: at, mentions: [] as string[] };
}

/** The task page's three reads, answered from `task`, `comments` and `activity`. */
function taskPage(task: Task & { description?: string }, comments = [comment('c1', 'Looks good', BOB)], activity: unknown[] = []) {
  const state = { task, comments, activity };
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', `/tasks/${task._id}`, () => json(200, { status: 'success', data: { task: state.task } }))
    .always('GET', `/tasks/${task._id}/comments`, () => json(200, { status: 'success', data: { comments: state.comments } }))
    .always('GET', `/tasks/${task._id}/activity`, () => json(200, { status: 'success', data: { activity: state.activity } }));
  return { api, state };
}

async function openTask(task: Task) {
  const rendered = renderApp(`/tasks/${task._id}`, { signedIn: true });
  // The first test of the file also loads the page's code: allow for it.
  await screen.findByRole('heading', { level: 1, name: task.taskTitle }, { timeout: 5000 });
  return rendered;
}

describe('the task page', () => {
  it('shows every field, and the description as text with line breaks and safe links', async () => {
    const task = makeTask({ taskTitle: 'Pay the invoice', workTitle: 'Finance', priority: 'high' });
    const description = 'See https://example.com/invoice/42.\nThen <b>pay</b> javascript:alert(1)';
    taskPage({ ...task, description });
    await openTask(task);

    expect(screen.getByText('Work title').nextElementSibling).toHaveTextContent('Finance');
    expect(screen.getByText('High')).toBeInTheDocument();
    expect(screen.getByText('bob@example.com')).toBeInTheDocument();
    expect(screen.getByText('Assignor').nextElementSibling).toHaveTextContent('Ada Lovelace (ada@example.com)');
    expect(screen.getByText('No deadline')).toBeInTheDocument();
    expect(screen.getByText('To do')).toBeInTheDocument();

    const link = screen.getByRole('link', { name: 'https://example.com/invoice/42' });
    expect(link).toHaveAttribute('href', 'https://example.com/invoice/42');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAttribute('target', '_blank');
    // Never HTML: the tag is text, and javascript: is not a link.
    const text = link.closest('.linked-text');
    expect(text).toHaveTextContent('Then <b>pay</b> javascript:alert(1)');
    expect(text?.querySelector('b')).toBeNull();
    expect(screen.getAllByRole('link').filter((a) => a.getAttribute('href')?.startsWith('javascript'))).toHaveLength(0);
    // The title is set by an effect, which may run after the page's first paint.
    await waitFor(() => {
      expect(document.title).toBe('Pay the invoice · Taskwise');
    });
  });

  it('edits the description with PATCH {description}', async () => {
    const task = makeTask({ taskTitle: 'Write the notes' });
    const { api, state } = taskPage({ ...task, description: '' });
    const { user } = await openTask(task);
    expect(screen.getByText('No description yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit description' }));
    const box = screen.getByRole('textbox', { name: 'Description' });
    expect(box).toHaveFocus();
    await user.type(box, 'Line one{Enter}Line two');
    api.on('PATCH', `/tasks/${task._id}`, (call) => {
      state.task = { ...state.task, ...(call.body as object), ...{ version: 2 } };
      return json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: state.task } });
    });
    await user.click(screen.getByRole('button', { name: 'Save description' }));
    await waitFor(() => {
      expect(screen.queryByRole('textbox', { name: 'Description' })).not.toBeInTheDocument();
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ description: 'Line one\nLine two', version: 1 });
    expect(document.querySelector('.task-details__text')?.textContent).toBe('Line one\nLine two');
    expect(screen.getByRole('button', { name: 'Edit description' })).toHaveFocus();
  });

  it('reopens a done task from the page', async () => {
    const task = makeTask({ taskTitle: 'Finished', status: 'done' });
    const { api, state } = taskPage(task);
    const { user } = await openTask(task);
    api.on('PATCH', `/tasks/${task._id}`, () => {
      state.task = { ...state.task, status: 'todo' };
      return json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: state.task } });
    });
    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(await screen.findByRole('button', { name: 'Mark complete' })).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ status: 'todo', version: 1 });
  });

  it('shows one’s own change in the activity from the write’s answer, with no live event', async () => {
    const task = makeTask({ taskTitle: 'Finished', status: 'done' });
    const { api, state } = taskPage(task, []);
    const { user } = await openTask(task);
    const list = await screen.findByRole('region', { name: 'Activity' });
    await waitFor(() => {
      expect(api.callsTo('GET', `/tasks/${task._id}/activity`)).toHaveLength(1);
    });
    api.on('PATCH', `/tasks/${task._id}`, () => {
      state.task = { ...state.task, status: 'todo', version: 2 };
      state.activity = [{ _id: 'a1', type: 'reopened', by: ADA, at: new Date().toISOString() }];
      return json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: state.task } });
    });
    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    // The stream's event for this write may come before the answer or after it (then it is not
    // newer and changes nothing): the answer alone must bring the activity up to date.
    expect(await within(list).findByText('reopened it', { exact: false })).toBeInTheDocument();
    expect(list).toHaveTextContent('Ada Lovelace reopened it');
  });

  it('says "Task not found" for a task the user cannot see', async () => {
    const notFound = () => json(404, { status: 'fail', code: 'NOT_FOUND', message: 'Task not found.' });
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .on('GET', '/tasks/nope', notFound())
      // Asked for beside the task, before anyone knows it is not there.
      .always('GET', '/tasks/nope/comments', notFound)
      .always('GET', '/tasks/nope/activity', notFound)
      .always('GET', '/tasks/nope/checklist', notFound);
    renderApp('/tasks/nope', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Task not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the board'})).toHaveAttribute('href', '/tasks');
  });

  it('asks for the checklist, the comments and the activity beside the task, not once the task has come', async () => {
    const task = makeTask({ taskTitle: 'Read in parallel' });
    let answerTask: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answerTask = resolve;
    });
    const api = mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', `/tasks/${task._id}`, async () => {
        await held;
        return json(200, { status: 'success', data: { task } });
      })
      .always('GET', `/tasks/${task._id}/comments`, () => json(200, { status: 'success', data: { comments: [comment('c1', 'Looks good', BOB)] } }))
      .always('GET', `/tasks/${task._id}/activity`, () => json(200, { status: 'success', data: { activity: [] } }))
      .always('GET', `/tasks/${task._id}/checklist`, () => json(200, { status: 'success', data: { items: [] } }));
    renderApp(`/tasks/${task._id}`, { signedIn: true });
    await waitFor(() => {
      expect(api.callsTo('GET', `/tasks/${task._id}/checklist`)).toHaveLength(1);
      expect(api.callsTo('GET', `/tasks/${task._id}/comments`)).toHaveLength(1);
      expect(api.callsTo('GET', `/tasks/${task._id}/activity`)).toHaveLength(1);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Loading task…' })).toBeInTheDocument();
    answerTask();
    expect(await screen.findByRole('heading', { level: 1, name: 'Read in parallel' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('Looks good')).toBeInTheDocument();
    // The sections use what was read beside the task: no second read of any.
    expect(api.callsTo('GET', `/tasks/${task._id}/checklist`)).toHaveLength(1);
    expect(api.callsTo('GET', `/tasks/${task._id}/comments`)).toHaveLength(1);
    expect(api.callsTo('GET', `/tasks/${task._id}/activity`)).toHaveLength(1);
  });

  it('lists the activity: who, what, when, and changes from → to', async () => {
    const task = makeTask({ taskTitle: 'Tracked' });
    const at = new Date(Date.now() - 2 * 3600_000).toISOString();
    taskPage(task, [], [
      { _id: 'a1', type: 'created', by: ADA, at },
      { _id: 'a2', type: 'updated', by: BOB, at, changes: { priority: { from: 'normal', to: 'urgent' }, assignee: { from: 'a@example.com', to: 'b@example.com' } } },
      { _id: 'a3', type: 'completed', by: BOB, at },
    ]);
    await openTask(task);
    const list = await screen.findByRole('region', { name: 'Activity' });
    const items = await within(list).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Ada Lovelace created the task · 2 hours ago');
    expect(within(list).getByText('priority').closest('li')).toHaveTextContent('priority: Normal → changed to Urgent');
    expect(within(list).getByText('assignee').closest('li')).toHaveTextContent('a@example.com');
    expect(list).toHaveTextContent('Bob Builder marked it complete');
  });
});

describe('comments', () => {
  it('shows others’ comments read-only and posts a new one', async () => {
    const task = makeTask({ taskTitle: 'Discuss' });
    const { api, state } = taskPage(task);
    const { user } = await openTask(task);
    const section = screen.getByRole('region', { name: /Comments/ });
    const bobs = await within(section).findByRole('article', { name: 'Comment by Bob Builder' });
    expect(bobs).toHaveTextContent('Looks good');
    expect(within(bobs).queryByRole('button')).not.toBeInTheDocument();

    // Nothing is sent for an empty comment.
    await user.click(within(section).getByRole('button', { name: 'Post comment' }));
    expect(within(section).getByText('Write something first.')).toBeInTheDocument();

    api.on('POST', `/tasks/${task._id}/comments`, (call) => {
      const created = comment('c2', (call.body as { body: string }).body);
      state.comments = [...state.comments, created];
      return json(201, { status: 'success', message: 'Comment added.', data: { comment: created } });
    });
    await user.type(within(section).getByRole('combobox', { name: 'Add a comment' }), '  On it, see https://example.com  ');
    await user.click(within(section).getByRole('button', { name: 'Post comment' }));
    const mine = await within(section).findByRole('article', { name: 'Comment by Ada Lovelace' });
    expect(api.callsTo('POST', `/tasks/${task._id}/comments`)[0]?.body).toEqual({ body: 'On it, see https://example.com' });
    expect(within(mine).getByRole('link', { name: 'https://example.com' })).toBeInTheDocument();
    expect(within(section).getByRole('combobox', { name: 'Add a comment' })).toHaveValue('');
  });

  it('edits and deletes one’s own comment', async () => {
    const task = makeTask({ taskTitle: 'Mine to change' });
    const { api, state } = taskPage(task, [comment('c9', 'Frist!')]);
    const { user } = await openTask(task);
    const mine = () => screen.getByRole('article', { name: 'Comment by Ada Lovelace' });
    await user.click(await screen.findByRole('button', { name: 'Edit comment' }));
    const box = within(mine()).getByRole('combobox', { name: 'Edit comment' });
    await user.clear(box);
    await user.type(box, 'First!');
    api.on('PATCH', `/tasks/${task._id}/comments/c9`, () => {
      const [only] = state.comments;
      if (!only) throw new Error('no comment');
      state.comments = [{ ...only, body: 'First!', updatedAt: new Date().toISOString() }];
      return json(200, { status: 'success', message: 'Comment updated.', data: { comment: state.comments[0] } });
    });
    await user.click(within(mine()).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(mine()).toHaveTextContent(/edited\s*First!Edit/);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}/comments/c9`)[0]?.body).toEqual({ body: 'First!' });

    await user.click(within(mine()).getByRole('button', { name: 'Delete comment' }));
    api.on('DELETE', `/tasks/${task._id}/comments/c9`, () => {
      state.comments = [];
      return noContent();
    });
    await user.click(within(screen.getByRole('alertdialog', { name: 'Delete this comment?' })).getByRole('button', { name: 'Delete comment' }));
    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'Comment by Ada Lovelace' })).not.toBeInTheDocument();
    });
    expect(screen.getByText('No comments yet.')).toBeInTheDocument();
  });
});

describe('attachments', () => {
  it('sits between the checklist and the comments; Make cover sends PATCH {coverId} and the page shows the new cover', async () => {
    const photo = {
      _id: 'a1',
      name: 'photo.png',
      size: 880_000,
      type: 'image/png',
      width: 480,
      height: 320,
      url: attachmentUrl('a1'),
      thumbnailUrl: thumbnailUrl('a1'),
      by: ADA,
      createdAt: '2026-11-01T10:00:00.000Z',
    };
    const task = makeTask({ taskTitle: 'Design the poster', attachmentCount: 1, assignee: ADA.email });
    const { api, state } = taskPage(task);
    api.always('GET', `/tasks/${task._id}/attachments`, json(200, { status: 'success', data: { attachments: [photo] } }));
    const { user } = await openTask(task);
    const make = await screen.findByRole('button', { name: 'Make cover photo.png' });
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings.indexOf('Attachments (1)')).toBeGreaterThan(headings.indexOf('Checklist'));
    expect(headings.indexOf('Attachments (1)')).toBeLessThan(headings.findIndex((h) => h.startsWith('Comments')));

    api.on('PATCH', `/tasks/${task._id}`, () => {
      state.task = { ...state.task, version: 2, cover: { attachmentId: 'a1', thumbnailUrl: thumbnailUrl('a1'), width: 480, height: 320 } };
      return json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: state.task } });
    });
    await user.click(make);
    // Shown at once, before the answer.
    expect(await screen.findByRole('button', { name: 'Remove cover photo.png' })).toBeInTheDocument();
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]!.body).toEqual({ coverId: 'a1', version: 1 });
  });
});

describe('opening and closing the task', () => {
  it('opens from a card and goes back to the board with its filters', async () => {
    const task = makeTask({ taskTitle: 'Click me' });
    const api = taskPage(task).api;
    api
      .always('GET', '/tasks', (call) => json(200, { status: 'success', results: 1, data: { tasks: call.query.get('status') === 'done' ? [] : [task], nextCursor: null } }))
      .always('GET', '/tasks/counts', json(200, { status: 'success', data: { counts: { todo: 1, done: 0, overdue: 0 } } }));
    const { user } = renderApp('/tasks?sort=priority', { signedIn: true });
    await user.click(await screen.findByRole('link', { name: 'Click me' }));
    await screen.findByRole('heading', { level: 1, name: 'Click me' });
    expect(currentPath()).toBe(`/tasks/${task._id}?sort=priority`);
    // Narrow screen (no matchMedia here): Esc closes the page like the browser's back button.
    await user.keyboard('{Escape}');
    await screen.findByRole('heading', { level: 1, name: 'Tasks' });
    expect(currentPath()).toBe('/tasks?sort=priority');
  });
});

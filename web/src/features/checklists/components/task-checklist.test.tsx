import { useQueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { NoticeRegion } from '#web/components/notices.tsx';
import { makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, networkError, noContent } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { registerChecklistWrites } from '../api/change-checklist.ts';
import { TaskChecklist } from './task-checklist.tsx';

const ITEMS: ChecklistItem[] = [
  { _id: 'i1', text: 'Buy milk', done: false },
  { _id: 'i2', text: 'Bake bread', done: true },
  { _id: 'i3', text: 'Call Ada', done: false },
];

/** The task page's copy of the task, as events and answers move it on. */
let showTask: (task: Task) => void = () => undefined;
function Harness({ initial, canChange, receiveTask }: { initial: Task; canChange: boolean; receiveTask: (task: Task) => void }) {
  const [task, setTask] = useState(initial);
  // The app's host writes the answer's task into the tasks' cache; here the test collects it.
  const queryClient = useQueryClient();
  useState(() => {
    registerChecklistWrites(queryClient, receiveTask);
  });
  useEffect(() => {
    showTask = (next) => {
      act(() => {
        setTask(next);
      });
    };
  }, []);
  return <TaskChecklist task={task} canChange={canChange} />;
}

function setUp({ items = ITEMS, canChange = true }: { items?: ChecklistItem[]; canChange?: boolean } = {}) {
  const task = makeTask({ checklist: { done: items.filter((i) => i.done).length, total: items.length } });
  const received: Task[] = [];
  const receiveTask = (changed: Task) => {
    received.push(changed);
  };
  // Signed in: a signed-out session empties the cache.
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', `/tasks/${task._id}/checklist`, json(200, { status: 'success', data: { items } }));
  const rendered = renderWithProviders(
    <>
      <Harness initial={task} canChange={canChange} receiveTask={receiveTask} />
      <NoticeRegion />
    </>,
  );
  const itemAnswer = (item: ChecklistItem, version = task.version + 1) =>
    json(200, { status: 'success', message: 'Checklist updated.', data: { item, task: { ...task, version } } });
  return { ...rendered, api, task, received, itemAnswer };
}

const section = () => screen.getByRole('region', { name: 'Checklist' });
const announced = () => within(section()).getByRole('status');
const texts = () =>
  within(within(section()).getByRole('list'))
    .getAllByRole('listitem')
    .map((row) => row.querySelector('label')?.textContent);

describe('the task page checklist', () => {
  it('lists the items in order with their ticks and shows the progress', async () => {
    setUp();
    expect(await screen.findByRole('checkbox', { name: 'Buy milk' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Bake bread' })).toBeChecked();
    expect(texts()).toEqual(['Buy milk', 'Bake bread', 'Call Ada']);
    expect(screen.getByText('1 of 3 done')).toBeInTheDocument();
  });

  it('ticks an item at once and hands the answer’s task to the host', async () => {
    const { user, api, task, received, itemAnswer } = setUp();
    let answer: (response: Response) => void = () => undefined;
    api.on('PATCH', `/tasks/${task._id}/checklist/i1`, () => new Promise<Response>((resolve) => (answer = resolve)));
    await user.click(await screen.findByRole('checkbox', { name: 'Buy milk' }));
    // Shown before the server answers.
    expect(screen.getByRole('checkbox', { name: 'Buy milk' })).toBeChecked();
    expect(screen.getByText('2 of 3 done')).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/tasks/${task._id}/checklist/i1`)[0]!.body).toEqual({ done: true });
    answer(itemAnswer({ ...ITEMS[0]!, done: true }));
    await waitFor(() => {
      expect(received.map((task) => task.version)).toEqual([2]);
    });
  });

  it('takes a refused tick back and says why', async () => {
    const { user, api, task } = setUp();
    api.on('PATCH', `/tasks/${task._id}/checklist/i1`, json(403, { status: 'fail', code: 'FORBIDDEN', message: 'You can only read this task.' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Buy milk' }));
    expect(await screen.findByText(/Couldn’t change the checklist\. You can only read this task\./)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Buy milk' })).not.toBeChecked();
  });

  it('adds an item with Enter, keeps the field focused and empty for the next one', async () => {
    const { user, api, task, itemAnswer } = setUp();
    api.on('POST', `/tasks/${task._id}/checklist`, (call) => itemAnswer({ _id: 'i4', text: (call.body as { text: string }).text, done: false }));
    const field = await screen.findByRole('textbox', { name: 'New checklist item' });
    await user.type(field, '  Water plants {Enter}');
    expect(field).toHaveFocus();
    expect(field).toHaveValue('');
    expect(api.callsTo('POST', `/tasks/${task._id}/checklist`)[0]!.body).toEqual({ text: 'Water plants' });
    expect(await screen.findByRole('checkbox', { name: 'Water plants' })).toBeEnabled();
    expect(announced()).toHaveTextContent('Added “Water plants”.');
  });

  it('sends an addition that got no answer again with the same Idempotency-Key, and shows it once', async () => {
    const { user, api, task, itemAnswer } = setUp();
    api.on('POST', `/tasks/${task._id}/checklist`, networkError());
    api.on('POST', `/tasks/${task._id}/checklist`, itemAnswer({ _id: 'i4', text: 'Water plants', done: false }));
    await user.type(await screen.findByRole('textbox', { name: 'New checklist item' }), 'Water plants{Enter}');
    await waitFor(
      () => {
        expect(api.callsTo('POST', `/tasks/${task._id}/checklist`)).toHaveLength(2);
      },
      { timeout: 4000 },
    );
    const keys = api.spy.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys[0]).toMatch(/^pending-/);
    expect(keys[1]).toBe(keys[0]);
    expect(await screen.findByRole('checkbox', { name: 'Water plants' })).toBeEnabled();
    expect(texts()).toEqual(['Buy milk', 'Bake bread', 'Call Ada', 'Water plants']);
  });

  it('edits an item in place: Enter saves, Esc gives up without closing anything around it', async () => {
    const { user, api, task, itemAnswer } = setUp();
    api.on('PATCH', `/tasks/${task._id}/checklist/i3`, itemAnswer({ ...ITEMS[2]!, text: 'Call Grace' }));
    await user.click(await screen.findByRole('button', { name: 'Edit “Call Ada”' }));
    const field = screen.getByRole('textbox', { name: 'Item text' });
    expect(field).toHaveFocus();
    // Esc: nothing sent, the text stays, and the key goes no further (the task dialog stays open).
    let escaped = false;
    document.addEventListener('keydown', () => (escaped = true), { once: true });
    await user.keyboard('{Escape}');
    expect(escaped).toBe(false);
    expect(screen.queryByRole('textbox', { name: 'Item text' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit “Call Ada”' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Edit “Call Ada”' }));
    await user.clear(screen.getByRole('textbox', { name: 'Item text' }));
    await user.keyboard('Call Grace{Enter}');
    expect(await screen.findByRole('checkbox', { name: 'Call Grace' })).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/tasks/${task._id}/checklist/i3`).map((call) => call.body)).toEqual([{ text: 'Call Grace' }]);
  });

  it('moves an item with the arrow keys on its handle and with Alt+arrows, and says where it went', async () => {
    const { user, api, task, itemAnswer } = setUp();
    api.always('PATCH', `/tasks/${task._id}/checklist/i3`, itemAnswer(ITEMS[2]!));
    const handle = await screen.findByRole('button', { name: 'Move “Call Ada”, position 3 of 3' });
    handle.focus();
    await user.keyboard('{ArrowUp}');
    expect(texts()).toEqual(['Buy milk', 'Call Ada', 'Bake bread']);
    expect(announced()).toHaveTextContent('“Call Ada” moved to position 2 of 3.');
    // Focus follows the item.
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Move “Call Ada”, position 2 of 3' })).toHaveFocus();
    });
    fireEvent.keyDown(screen.getByRole('checkbox', { name: 'Call Ada' }), { key: 'ArrowUp', altKey: true });
    await waitFor(() => {
      expect(texts()).toEqual(['Call Ada', 'Buy milk', 'Bake bread']);
    });
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}/checklist/i3`).map((call) => call.body)).toEqual([{ position: 1 }, { position: 0 }]);
    });
  });

  it('puts a moved item back where it was when the move is refused', async () => {
    const { user, api, task } = setUp();
    api.on('PATCH', `/tasks/${task._id}/checklist/i1`, json(404, { status: 'fail', code: 'NOT_FOUND', message: 'Item not found.' }));
    const handle = await screen.findByRole('button', { name: 'Move “Buy milk”, position 1 of 3' });
    handle.focus();
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByText(/Item not found\./)).toBeInTheDocument();
    expect(texts()).toEqual(['Buy milk', 'Bake bread', 'Call Ada']);
  });

  it('deletes at once and undoes the delete in the item’s place', async () => {
    const { user, api, task, itemAnswer } = setUp();
    api.on('DELETE', `/tasks/${task._id}/checklist/i2`, noContent());
    api.on('POST', `/tasks/${task._id}/checklist`, json(201, { status: 'success', message: 'Added.', data: { item: { _id: 'i5', text: 'Bake bread', done: false }, task: { ...task, version: 3, checklist: { done: 0, total: 3 } } } }));
    api.on('PATCH', `/tasks/${task._id}/checklist/i5`, itemAnswer({ _id: 'i5', text: 'Bake bread', done: true }, 4));
    await user.click(await screen.findByRole('button', { name: 'Delete “Bake bread”' }));
    expect(texts()).toEqual(['Buy milk', 'Call Ada']);
    // Said, and shown next to Undo, which takes the focus (the deleted item's buttons are gone).
    expect(announced()).toHaveTextContent('Deleted “Bake bread”.');
    expect(screen.getByRole('button', { name: 'Undo' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(texts()).toEqual(['Buy milk', 'Bake bread', 'Call Ada']);
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}/checklist/i5`).map((call) => call.body)).toEqual([{ position: 1, done: true }]);
    });
    expect(screen.getByRole('checkbox', { name: 'Bake bread' })).toBeChecked();
  });

  it('only shows the list to someone who may not change the task', async () => {
    setUp({ canChange: false });
    expect(await screen.findByRole('checkbox', { name: 'Buy milk' })).toBeDisabled();
    expect(screen.queryByRole('textbox', { name: 'New checklist item' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Move/ })).not.toBeInTheDocument();
  });

  it('asks again when the task reaches a version someone else made, not for its own', async () => {
    const { user, api, task, itemAnswer } = setUp();
    const gets = () => api.callsTo('GET', `/tasks/${task._id}/checklist`).length;
    api.on('PATCH', `/tasks/${task._id}/checklist/i1`, itemAnswer({ ...ITEMS[0]!, done: true }, 2));
    await user.click(await screen.findByRole('checkbox', { name: 'Buy milk' }));
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}/checklist/i1`)).toHaveLength(1);
    });
    // Its own answer's version (the page's copy follows it): nothing to ask.
    showTask({ ...task, version: 2 });
    await Promise.resolve();
    expect(gets()).toBe(1);
    // Someone else's: asked again.
    showTask({ ...task, version: 3 });
    await waitFor(() => {
      expect(gets()).toBe(2);
    });
  });

  it('waits for its own change to be answered before asking again, so the tick does not flicker', async () => {
    const { user, api, task, itemAnswer } = setUp();
    const gets = () => api.callsTo('GET', `/tasks/${task._id}/checklist`).length;
    let answer: (response: Response) => void = () => undefined;
    api.on('PATCH', `/tasks/${task._id}/checklist/i1`, () => new Promise<Response>((resolve) => (answer = resolve)));
    await user.click(await screen.findByRole('checkbox', { name: 'Buy milk' }));
    // Someone else ticked meanwhile (their version arrives first).
    showTask({ ...task, version: 2 });
    await Promise.resolve();
    expect(gets()).toBe(1);
    expect(screen.getByRole('checkbox', { name: 'Buy milk' })).toBeChecked();
    answer(itemAnswer({ ...ITEMS[0]!, done: true }, 3));
    await waitFor(() => {
      expect(gets()).toBe(2);
    });
  });
});

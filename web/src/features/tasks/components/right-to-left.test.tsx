import { attachClosestEdge } from '@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge/attach-closest-edge';
import { extractClosestEdge } from '@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge/extract-closest-edge';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, dayKeyOf, shiftByDays, viewerTimeZone, zonedInstant } from '#shared/calendar-dates.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Column } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { boardAnswer, boardsAnswer, countsAnswer, listAnswer, makeBoard, makeTask, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';
import { moveDirectionOf } from './card-behaviour.ts';
import { columnDropAfter } from './card-moves.tsx';
import { arrowSteps, formatDay } from './date-moves.ts';

/*
 * Right to left (Arabic: <html dir="rtl">) the board's first column stands on the right. The
 * keys and the drop edges are sides on screen: ArrowLeft, and a drop on a column's left edge,
 * go towards the next column, the later day.
 */

beforeEach(() => {
  document.documentElement.dir = 'rtl';
});

afterEach(() => {
  document.documentElement.removeAttribute('dir');
});

const COLUMNS: Column[] = [
  { _id: 'col-todo', name: 'Tasks To Do', category: 'todo', wipLimit: null, position: 'a0' },
  { _id: 'col-review', name: 'Review', category: 'todo', wipLimit: null, position: 'a1' },
  { _id: 'col-done', name: 'Completed', category: 'done', wipLimit: null, position: 'a2' },
];
const FLOW = makeBoard({ _id: 'flow', name: 'Flow', role: 'admin', columns: COLUMNS });

/** A board of three columns; `byColumn`: the tasks each column's list answers (a test may change it). */
function board(byColumn: Record<string, Task[]>) {
  const count = (id: string) => byColumn[id]?.length ?? 0;
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD, FLOW])))
    .always('GET', '/boards/flow', json(200, boardAnswer(FLOW)))
    .always('GET', '/boards/flow/labels', json(200, { status: 'success', data: { labels: [] } }))
    .always('GET', '/tasks', (call) => json(200, listAnswer(byColumn[call.query.get('column') ?? ''] ?? [])))
    .always('GET', '/tasks/counts', () => {
      const columns = Object.fromEntries(COLUMNS.map((column) => [column._id, count(column._id)]));
      return json(200, { status: 'success', data: { counts: { todo: count('col-todo') + count('col-review'), done: count('col-done'), overdue: 0, columns } } });
    });
}

const moved = (task: Task) => json(200, { status: 'success', message: 'The task was moved.', data: { task } });

describe('the keys on a card, right to left', () => {
  it('maps ArrowLeft to the next column and ArrowRight to the previous one; up and down stay', () => {
    const card = document.createElement('article');
    document.body.append(card);
    expect(moveDirectionOf('ArrowLeft', card)).toBe('next');
    expect(moveDirectionOf('ArrowRight', card)).toBe('previous');
    expect(moveDirectionOf('ArrowUp', card)).toBe('up');
    expect(moveDirectionOf('ArrowDown', card)).toBe('down');
    expect(moveDirectionOf('Enter', card)).toBeUndefined();
    document.documentElement.dir = 'ltr';
    expect(moveDirectionOf('ArrowLeft', card)).toBe('previous');
    expect(moveDirectionOf('ArrowRight', card)).toBe('next');
    card.remove();
  });

  it('Alt+← sends the card to the column on its left, the next one', async () => {
    const task = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Ship v2', assignee: 'ada@example.com' });
    const server: Record<string, Task[]> = { 'col-todo': [task] };
    const fetch = board(server);
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const card = await screen.findByRole('article', { name: 'Ship v2' }, { timeout: 10_000 });
    const inReview = { ...task, columnId: 'col-review', version: 2, position: 'b' };
    fetch.on('POST', `/tasks/${task._id}/move`, () => {
      server['col-todo'] = [];
      server['col-review'] = [inReview];
      return moved(inReview);
    });
    card.focus();
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    expect(await within(screen.getByRole('region', { name: 'Review' })).findByRole('article', { name: 'Ship v2' })).toBeInTheDocument();
    await waitFor(() => {
      expect(fetch.callsTo('POST', `/tasks/${task._id}/move`)[0]?.body).toEqual({ columnId: 'col-review', afterId: null, version: 1 });
    });
  });

  it('Alt+→ sends it to the column on its right, the previous one; none from the first column', async () => {
    const task = makeTask({ boardId: 'flow', columnId: 'col-review', taskTitle: 'Ship v2', assignee: 'ada@example.com' });
    const first = makeTask({ boardId: 'flow', columnId: 'col-todo', taskTitle: 'Already first', assignee: 'ada@example.com' });
    const server: Record<string, Task[]> = { 'col-review': [task], 'col-todo': [first] };
    const fetch = board(server);
    const { user } = renderApp('/boards/flow', { signedIn: true });
    const edge = await screen.findByRole('article', { name: 'Already first' }, { timeout: 10_000 });
    edge.focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');

    const card = screen.getByRole('article', { name: 'Ship v2' });
    const inTodo = { ...task, columnId: 'col-todo', version: 2, position: 'a' };
    fetch.on('POST', `/tasks/${task._id}/move`, () => {
      server['col-review'] = [];
      server['col-todo'] = [inTodo, first];
      return moved(inTodo);
    });
    card.focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    await waitFor(() => {
      expect(fetch.callsTo('POST', `/tasks/${task._id}/move`)[0]?.body).toEqual({ columnId: 'col-todo', afterId: null, version: 1 });
    });
    // Nothing was sent for the card already in the first (rightmost) column.
    expect(fetch.callsTo('POST', `/tasks/${first._id}/move`)).toHaveLength(0);
  });
});

describe('the column menu, right to left', () => {
  it('"Move left" puts the column after the next one; the rightmost column cannot move right', async () => {
    const fetch = board({});
    const { user } = renderApp('/boards/flow', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Column options: Tasks To Do' }, { timeout: 10_000 }));
    expect(screen.getByRole('button', { name: 'Move right' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move left' })).toBeEnabled();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Column options: Review' }));
    fetch.on('PATCH', '/boards/flow/columns/col-review', json(200, { status: 'success', message: 'The column was saved.', data: { column: { ...COLUMNS[1], position: 'a3' } } }));
    await user.click(screen.getByRole('button', { name: 'Move left' }));
    await waitFor(() => {
      expect(fetch.callsTo('PATCH', '/boards/flow/columns/col-review')[0]?.body).toEqual({ afterId: 'col-done' });
    });
  });
});

describe('a column dropped on a column’s edge, right to left', () => {
  /** A column 300 px wide at the left of the screen, as the hitbox measures it. */
  function columnElement(): HTMLElement {
    const section = document.createElement('section');
    section.getBoundingClientRect = () => ({ x: 0, y: 0, left: 0, top: 0, right: 300, bottom: 600, width: 300, height: 600, toJSON: () => ({}) });
    document.body.append(section);
    return section;
  }
  /** The edge the hitbox finds for a pointer at `clientX`. */
  function edgeAt(element: HTMLElement, clientX: number) {
    const input = { altKey: false, button: 0, buttons: 1, ctrlKey: false, metaKey: false, shiftKey: false, clientX, clientY: 300, pageX: clientX, pageY: 300 };
    return extractClosestEdge(attachClosestEdge({}, { element, input, allowedEdges: ['left', 'right'] }));
  }

  it('lands before the target at its right edge (its start) and after it at its left edge', () => {
    const review = columnElement();
    expect(edgeAt(review, 290)).toBe('right');
    expect(edgeAt(review, 10)).toBe('left');
    // "Completed" dropped on "Review": before it is after "Tasks To Do".
    expect(columnDropAfter(COLUMNS, 'col-done', 'col-review', edgeAt(review, 290), review)).toBe('col-todo');
    expect(columnDropAfter(COLUMNS, 'col-done', 'col-review', edgeAt(review, 10), review)).toBe('col-review');
    // "Review" dropped at the right edge of "Tasks To Do", the first: first.
    expect(columnDropAfter(COLUMNS, 'col-review', 'col-todo', 'right', review)).toBeNull();
    review.remove();
  });

  it('left to right the same pointer lands the other way', () => {
    document.documentElement.dir = 'ltr';
    const review = columnElement();
    expect(columnDropAfter(COLUMNS, 'col-done', 'col-review', edgeAt(review, 290), review)).toBe('col-review');
    expect(columnDropAfter(COLUMNS, 'col-done', 'col-review', edgeAt(review, 10), review)).toBe('col-todo');
    review.remove();
  });
});

const zone = viewerTimeZone();
const today = dayKeyOf(Date.now(), zone);
const at = (day: string, hour: number) => new Date(zonedInstant(day, hour, 0, 0, 0, zone)).toISOString();

function dated(tasks: Task[]) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', json(200, listAnswer(tasks)))
    .always('GET', '/tasks/counts', json(200, countsAnswer(tasks.length, 0)));
}

const updated = (task: Task) => json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task } });

describe('dates moved by keyboard and pointer, right to left', () => {
  it('Alt+← is a day later and Alt+→ a day earlier; up and down stay a week', () => {
    const chip = document.createElement('a');
    document.body.append(chip);
    expect(arrowSteps('ArrowLeft', chip)).toEqual({ days: 1, weeks: 0 });
    expect(arrowSteps('ArrowRight', chip)).toEqual({ days: -1, weeks: 0 });
    expect(arrowSteps('ArrowUp', chip)).toEqual({ days: 0, weeks: -1 });
    expect(arrowSteps('ArrowDown', chip)).toEqual({ days: 0, weeks: 1 });
    chip.remove();
  });

  it('the calendar moves a chip a day on with Alt+←, to the day on its left', async () => {
    const task = makeTask({ taskTitle: 'Call the plumber', deadline: at(today, 10) });
    const api = dated([task]);
    const later = shiftByDays(task.deadline ?? '', 1, zone);
    api.on('PATCH', `/tasks/${task._id}`, updated({ ...task, deadline: later, version: 2 }));
    const { user } = renderApp('/tasks?view=calendar', { signedIn: true });
    (await screen.findByRole('link', { name: /Call the plumber/ })).focus();
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ deadline: later, version: 1 });
    });
  });

  it('the timeline moves a bar a day on with Alt+←, and its deadline a day back with → on its end', async () => {
    const task = makeTask({ taskTitle: 'Paint the fence', startAt: at(today, 9), deadline: at(addDays(today, 2), 17) });
    const api = dated([task]);
    const later = { ...task, startAt: shiftByDays(task.startAt ?? '', 1, zone), deadline: shiftByDays(task.deadline ?? '', 1, zone), version: 2 };
    api.on('PATCH', `/tasks/${task._id}`, updated(later));
    const { user } = renderApp('/tasks?view=timeline', { signedIn: true });
    (await screen.findByRole('link', { name: /^Paint the fence/ })).focus();
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ startAt: later.startAt, deadline: later.deadline, version: 1 });
    });
    expect(await screen.findByRole('link', { name: `Paint the fence, ${formatDay(addDays(today, 1))} to ${formatDay(addDays(today, 3))}` })).toBeInTheDocument();

    const shorter = { ...later, deadline: shiftByDays(later.deadline, -1, zone), version: 3 };
    api.on('PATCH', `/tasks/${task._id}`, updated(shorter));
    screen.getByRole('slider', { name: 'Deadline of “Paint the fence”' }).focus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)[1]?.body).toEqual({ deadline: shorter.deadline, version: 2 });
    });
  });

  it('the timeline places a bar from the right and moves it later when dragged to the left', async () => {
    const task = makeTask({ taskTitle: 'Paint the fence', startAt: at(today, 9), deadline: at(addDays(today, 2), 17) });
    const api = dated([task]);
    const later = { ...task, startAt: shiftByDays(task.startAt ?? '', 2, zone), deadline: shiftByDays(task.deadline ?? '', 2, zone), version: 2 };
    api.on('PATCH', `/tasks/${task._id}`, updated(later));
    renderApp('/tasks?view=timeline', { signedIn: true });
    const body = await screen.findByRole('link', { name: /^Paint the fence/ });
    const bar = body.parentElement;
    // Placed from the start side: the right edge right to left.
    expect(bar?.style.insetInlineStart).toMatch(/px$/);
    expect(bar?.style.left).toBe('');
    // jsdom has no pointer capture.
    const capture = Object.getOwnPropertyDescriptor(Element.prototype, 'setPointerCapture');
    Element.prototype.setPointerCapture = () => undefined;
    try {
      // The week zoom: 20 px a day. Two days to the left.
      fireEvent.pointerDown(body, { button: 0, pointerId: 1, clientX: 500 });
      fireEvent.pointerMove(body, { pointerId: 1, clientX: 470 });
      fireEvent.pointerUp(body, { pointerId: 1, clientX: 460 });
    } finally {
      if (capture) Object.defineProperty(Element.prototype, 'setPointerCapture', capture);
      else Reflect.deleteProperty(Element.prototype, 'setPointerCapture');
    }
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ startAt: later.startAt, deadline: later.deadline, version: 1 });
    });
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { addDays, dayKeyOf, shiftByDays, viewerTimeZone, zonedInstant } from '#shared/calendar-dates.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';
import { formatDay } from './date-moves.ts';

const zone = viewerTimeZone();
const today = dayKeyOf(Date.now(), zone);
const at = (day: string, hour: number) => new Date(zonedInstant(day, hour, 0, 0, 0, zone)).toISOString();

function timeline(tasks: Task[]) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', json(200, listAnswer(tasks)))
    .always('GET', '/tasks/counts', json(200, countsAnswer(tasks.length, 0)));
}

const updated = (task: Task) => json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task } });

describe('timeline view', () => {
  it('draws a bar per scheduled task in its status’s lane, named by its dates, and lists the rest apart', async () => {
    timeline([
      makeTask({ taskTitle: 'Paint the fence', startAt: at(today, 9), deadline: at(addDays(today, 2), 17) }),
      makeTask({ taskTitle: 'File the taxes', status: 'done', deadline: at(today, 12), assignee: 'cy@example.com' }),
      makeTask({ taskTitle: 'Someday maybe' }),
    ]);
    const { user } = renderApp('/tasks?view=timeline', { signedIn: true });
    const todo = await screen.findByRole('region', { name: 'To do' });
    expect(within(todo).getByRole('link', { name: `Paint the fence, ${formatDay(today)} to ${formatDay(addDays(today, 2))}` })).toBeInTheDocument();
    expect(within(todo).getByRole('slider', { name: 'Deadline of “Paint the fence”' })).toHaveAttribute('aria-valuetext', formatDay(addDays(today, 2)));
    const done = screen.getByRole('region', { name: 'Completed' });
    expect(within(done).getByRole('link', { name: `File the taxes, due ${formatDay(today)}, completed` })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: /Not scheduled/ })).getByRole('link', { name: 'Someday maybe' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Assignee' }));
    expect(within(screen.getByRole('region', { name: 'cy@example.com' })).getByRole('link', { name: /File the taxes/ })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'bob@example.com' })).getByRole('link', { name: /Paint the fence/ })).toBeInTheDocument();
  });

  it('moves both dates a day with Alt+Right on the bar, and the deadline alone with an arrow key on its end', async () => {
    const task = makeTask({ taskTitle: 'Paint the fence', startAt: at(today, 9), deadline: at(addDays(today, 2), 17) });
    const api = timeline([task]);
    const later = { ...task, startAt: shiftByDays(task.startAt ?? '', 1, zone), deadline: shiftByDays(task.deadline ?? '', 1, zone), version: 2 };
    api.on('PATCH', `/tasks/${task._id}`, updated(later));
    const { user } = renderApp('/tasks?view=timeline', { signedIn: true });
    (await screen.findByRole('link', { name: /^Paint the fence/ })).focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ startAt: later.startAt, deadline: later.deadline, version: 1 });
    expect(await screen.findByRole('link', { name: `Paint the fence, ${formatDay(addDays(today, 1))} to ${formatDay(addDays(today, 3))}` })).toBeInTheDocument();

    const shorter = { ...later, deadline: shiftByDays(later.deadline, -1, zone), version: 3 };
    api.on('PATCH', `/tasks/${task._id}`, updated(shorter));
    const end = screen.getByRole('slider', { name: 'Deadline of “Paint the fence”' });
    end.focus();
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(2);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[1]?.body).toEqual({ deadline: shorter.deadline, version: 2 });
    await waitFor(() => {
      expect(screen.getByRole('slider', { name: 'Deadline of “Paint the fence”' })).toHaveAttribute('aria-valuetext', formatDay(addDays(today, 2)));
    });
  });

  it('puts a refused change back and shows the server’s message', async () => {
    const task = makeTask({ taskTitle: 'Paint the fence', startAt: at(today, 9), deadline: at(today, 17) });
    const api = timeline([task]);
    api.on('PATCH', `/tasks/${task._id}`, json(400, { status: 'fail', code: 'VALIDATION_ERROR', message: 'Deadline cannot be before the start.', errors: [{ field: 'deadline', message: 'Deadline cannot be before the start.' }] }));
    const { user } = renderApp('/tasks?view=timeline', { signedIn: true });
    (await screen.findByRole('slider', { name: 'Deadline of “Paint the fence”' })).focus();
    await user.keyboard('{ArrowLeft}');
    expect(await screen.findByText('Couldn’t save “Paint the fence”. Deadline cannot be before the start.')).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ deadline: shiftByDays(task.deadline ?? '', -1, zone), version: 1 });
    expect(screen.getByRole('slider', { name: 'Deadline of “Paint the fence”' })).toHaveAttribute('aria-valuetext', formatDay(today));
  });

  it('opens the conflict dialog, start included, when someone changed the task meanwhile', async () => {
    const task = makeTask({ taskTitle: 'Paint the fence', startAt: at(today, 9), deadline: at(addDays(today, 2), 17) });
    const api = timeline([task]);
    const theirs = { ...task, startAt: at(addDays(today, 1), 9), version: 2 };
    api.on('PATCH', `/tasks/${task._id}`, json(409, { status: 'fail', code: 'CONFLICT', message: 'The task has changed.', data: { task: theirs } }));
    const { user } = renderApp('/tasks?view=timeline', { signedIn: true });
    (await screen.findByRole('link', { name: /^Paint the fence/ })).focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    const dialog = await screen.findByRole('alertdialog', { name: 'This task changed while you were working on it' });
    const start = within(dialog)
      .getAllByRole('listitem')
      .find((item) => within(item).queryByRole('heading', { name: 'Start' }));
    expect(start).toHaveTextContent(/Theirs.*\(was .*\)Yours/);
    // The dialog says it; the view does not repeat it.
    expect(screen.queryByText(/Couldn’t save/)).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, addMonths, dayKeyOf, daysBetween, defaultDueOn, shiftByDays, startOfMonth, viewerTimeZone, zonedInstant } from '#shared/calendar-dates.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';
import { formatDay } from './date-moves.ts';

const zone = viewerTimeZone();
const today = dayKeyOf(Date.now(), zone);
/** Today at `hour:minute` in the viewer's zone. */
const todayAt = (hour: number, minute: number) => new Date(zonedInstant(today, hour, minute, 0, 0, zone)).toISOString();

function calendar(tasks: Task[]) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', json(200, listAnswer(tasks)))
    .always('GET', '/tasks/counts', json(200, countsAnswer(tasks.length, 0)));
}

const day = (key: string) => screen.getByRole('group', { name: new RegExp(`^${formatDay(key)}`) });

describe('calendar view', () => {
  it('shows each task on its deadline’s day in the viewer’s zone, done ones marked, undated ones apart', async () => {
    calendar([
      makeTask({ taskTitle: 'Call the plumber', deadline: todayAt(10, 30) }),
      makeTask({ taskTitle: 'Send the invoice', status: 'done', deadline: todayAt(16, 0) }),
      makeTask({ taskTitle: 'Think about it' }),
    ]);
    renderApp('/tasks?view=calendar', { signedIn: true });
    const call = await screen.findByRole('link', { name: /Call the plumber/ });
    expect(day(today)).toContainElement(call);
    const done = within(day(today)).getByRole('link', { name: /Send the invoice, completed/ });
    expect(done).toHaveClass('calendar-chip--done');
    const undated = screen.getByRole('complementary', { name: 'No deadline' });
    expect(within(undated).getByRole('link', { name: /Think about it/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows three of a day’s six tasks in the month and the rest behind “3 more”, and all six in the week', async () => {
    calendar(['One', 'Two', 'Three', 'Four', 'Five', 'Six'].map((title, i) => makeTask({ taskTitle: title, deadline: todayAt(9 + i, 0) })));
    const { user } = renderApp('/tasks?view=calendar', { signedIn: true });
    await screen.findByRole('link', { name: /One/ });
    const chips = () => within(day(today)).getAllByRole('link').map((link) => link.querySelector('.calendar-chip__title')?.textContent);
    expect(chips()).toEqual(['One', 'Two', 'Three']);
    const more = within(day(today)).getByRole('button', { name: `3 more due ${formatDay(today)}` });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    expect(chips()).toEqual(['One', 'Two', 'Three', 'Four', 'Five', 'Six']);
    await user.click(within(day(today)).getByRole('button', { name: `Show fewer due ${formatDay(today)}` }));
    expect(chips()).toEqual(['One', 'Two', 'Three']);
    await user.click(screen.getByRole('button', { name: 'Week' }));
    expect(chips()).toEqual(['One', 'Two', 'Three', 'Four', 'Five', 'Six']);
    expect(within(day(today)).queryByRole('button', { name: /more/ })).not.toBeInTheDocument();
  });

  it('moves a task a day on with Alt+Right, keeping its time of day, and says so', async () => {
    const task = makeTask({ taskTitle: 'Call the plumber', deadline: todayAt(10, 30) });
    const api = calendar([task]);
    const moved = shiftByDays(task.deadline ?? '', 1, zone);
    api.on('PATCH', `/tasks/${task._id}`, json(200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task: { ...task, deadline: moved, version: 2 } } }));
    const { user } = renderApp('/tasks?view=calendar', { signedIn: true });
    const chip = await screen.findByRole('link', { name: /Call the plumber/ });
    chip.focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ deadline: moved, version: 1 });
    const tomorrow = addDays(today, 1);
    await waitFor(() => {
      expect(within(day(tomorrow)).getByRole('link', { name: /Call the plumber/ })).toHaveFocus();
    });
    expect(screen.getByText(`“Call the plumber” is now due ${formatDay(tomorrow)}`, { exact: false })).toHaveAttribute('role', 'status');
    // Drawn again in the week grid, the chip does not take the focus back.
    await user.click(screen.getByRole('button', { name: 'Week' }));
    expect(screen.getByRole('button', { name: 'Week' })).toHaveFocus();
  });

  it('gives an undated task 17:00 by keyboard, and puts a refused move back with the server’s message', async () => {
    const task = makeTask({ taskTitle: 'Think about it', startAt: todayAt(9, 0) });
    const api = calendar([task]);
    api.on('PATCH', `/tasks/${task._id}`, json(400, { status: 'fail', code: 'VALIDATION_ERROR', message: 'Deadline cannot be before the start.', errors: [{ field: 'deadline', message: 'Deadline cannot be before the start.' }] }));
    const { user } = renderApp('/tasks?view=calendar', { signedIn: true });
    const undated = await screen.findByRole('complementary', { name: 'No deadline' });
    (await within(undated).findByRole('link', { name: /Think about it/ })).focus();
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    await waitFor(() => {
      expect(api.callsTo('PATCH', `/tasks/${task._id}`)).toHaveLength(1);
    });
    expect(api.callsTo('PATCH', `/tasks/${task._id}`)[0]?.body).toEqual({ deadline: defaultDueOn(addDays(today, -1), zone), version: 1 });
    expect(await screen.findByText(/Couldn’t save “Think about it”\. Deadline cannot be before the start\./)).toBeInTheDocument();
    // Back where it was.
    expect(within(screen.getByRole('complementary', { name: 'No deadline' })).getByRole('link', { name: /Think about it/ })).toBeInTheDocument();
  });

  describe('on a phone', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('lists the month’s days from today on, empty ones too, and the days before today only with a task', async () => {
      // Every narrow-screen query matches (jsdom has no matchMedia of its own).
      vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
      // The 10th of last month: always past, whatever today is.
      const lastMonth = addDays(addMonths(startOfMonth(today), -1), 9);
      calendar([
        makeTask({ taskTitle: 'Call the plumber', deadline: todayAt(10, 30) }),
        makeTask({ taskTitle: 'File the taxes', deadline: new Date(zonedInstant(lastMonth, 9, 0, 0, 0, zone)).toISOString() }),
      ]);
      const { user } = renderApp('/tasks?view=calendar', { signedIn: true });
      const call = await screen.findByRole('link', { name: /Call the plumber/ });
      const days = daysBetween(today, addMonths(startOfMonth(today), 1));
      const agenda = screen.getAllByRole('group', { name: /\d{4}/ });
      expect(agenda).toHaveLength(days);
      expect(agenda[0]).toHaveAccessibleName(formatDay(today));
      expect(within(agenda[0] ?? document.body).getByRole('heading', { level: 3 })).toBeInTheDocument();
      expect(agenda[0]).toContainElement(call);
      expect(screen.queryAllByText('Nothing due')).toHaveLength(days - 1);

      // Last month is all past: only the day with a task is listed.
      await user.click(screen.getByRole('button', { name: 'Previous month' }));
      const past = await screen.findAllByRole('group', { name: /\d{4}/ });
      expect(past).toHaveLength(1);
      expect(past[0]).toHaveAccessibleName(formatDay(lastMonth));
      expect(within(past[0] ?? document.body).getByRole('link', { name: /File the taxes/ })).toBeInTheDocument();
      expect(screen.queryByText('Nothing due')).not.toBeInTheDocument();

      // The month before it had none: it says so once.
      await user.click(screen.getByRole('button', { name: 'Previous month' }));
      expect(await screen.findByText('Nothing due')).toBeInTheDocument();
      expect(screen.queryAllByRole('group', { name: /\d{4}/ })).toHaveLength(0);
    });
  });
});

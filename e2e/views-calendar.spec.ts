import type { Locator, Page } from '@playwright/test';
import { addDays, dayKeyOf, startOfWeek, zonedInstant } from '../shared/calendar-dates.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

/*
 * The calendar and the timeline in the browser: a drag with the mouse saves the new date; on a
 * phone the calendar is an agenda and both views move dates by Alt+arrows (the unit tests drive
 * the rest of the keyboard); both views pass axe at 360 and 1280 px in both themes.
 * The browser runs in Europe/Berlin, en-US (playwright.config.ts): weeks start on Sunday.
 */

const ZONE = 'Europe/Berlin';
const at = (day: string, hour: number, minute = 0) => new Date(zonedInstant(day, hour, minute, 0, 0, ZONE)).toISOString();
/** How the calendar names a day ("Friday, December 4, 2026"). */
const dayName = (key: string) => new Intl.DateTimeFormat('en-US', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));

test.use({ signedIn: true });

async function createTask(page: Page, data: Record<string, unknown>): Promise<string> {
  const res = await page.request.post('/api/tasks', { data });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { task: { _id: string } } }).data.task._id;
}

async function readTask(page: Page, id: string): Promise<{ deadline: string | null; startAt: string | null }> {
  const res = await page.request.get(`/api/tasks/${id}`);
  return ((await res.json()) as { data: { task: { deadline: string | null; startAt: string | null } } }).data.task;
}

/** Drags `source` onto `target` with the mouse, as a person would. */
async function drag(page: Page, source: Locator, target: Locator): Promise<void> {
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('no box');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + Math.min(to.height / 2, 40), { steps: 10 });
  await page.mouse.up();
}

test('calendar: a task dragged to another day keeps its time, and an undated one dropped on a day is due there at 17:00', async ({ page, user }) => {
  // Next week, whose days are all ahead (a deadline that is set or changed may not be past).
  const next = startOfWeek(addDays(dayKeyOf(Date.now(), ZONE), 7), 0);
  const [from, to, drop] = [addDays(next, 1), addDays(next, 3), addDays(next, 4)];
  const dated = `Dated ${randomSuffix()}`;
  const undated = `Undated ${randomSuffix()}`;
  const id = await createTask(page, { taskTitle: dated, assignee: user.email, deadline: at(from, 10, 30) });
  const waitingId = await createTask(page, { taskTitle: undated, assignee: user.email });

  await page.goto('/tasks');
  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Calendar' }).click();
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  const chip = page.getByRole('group', { name: dayName(from) }).getByRole('link', { name: new RegExp(dated) });
  await expect(chip).toBeVisible();
  await drag(page, chip, page.getByRole('group', { name: dayName(to) }));
  await expect(page.getByRole('group', { name: dayName(to) }).getByRole('link', { name: new RegExp(dated) })).toContainText('10:30');
  await expect.poll(async () => (await readTask(page, id)).deadline).toBe(at(to, 10, 30));

  const waiting = page.getByRole('complementary', { name: 'No deadline' }).getByRole('link', { name: new RegExp(undated) });
  await drag(page, waiting, page.getByRole('group', { name: dayName(drop) }));
  await expect(page.getByRole('group', { name: dayName(drop) }).getByRole('link', { name: new RegExp(undated) })).toContainText('5:00');
  await expect.poll(async () => (await readTask(page, waitingId)).deadline).toBe(at(drop, 17));

  // The task page says the new day at the same time.
  await page.getByRole('group', { name: dayName(to) }).getByRole('link', { name: new RegExp(dated) }).click();
  const shown = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${to}T00:00:00Z`));
  await expect(page.getByRole('dialog').getByRole('definition').filter({ hasText: '10:30 AM' })).toContainText(shown);
});

test('timeline: dragging a bar’s end changes its deadline by whole days', async ({ page, user }) => {
  const today = dayKeyOf(Date.now(), ZONE);
  const title = `Span ${randomSuffix()}`;
  const id = await createTask(page, { taskTitle: title, assignee: user.email, startAt: at(today, 9), deadline: at(addDays(today, 1), 17) });
  await page.goto('/tasks?view=timeline');
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Day' }).click();
  const end = page.getByRole('slider', { name: `Deadline of “${title}”` });
  await expect(end).toBeVisible();
  const box = await end.boundingBox();
  if (!box) throw new Error('no box');
  // Day zoom: 48 px a day. Two days to the right.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 96, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(end).toHaveAttribute('aria-valuetext', dayName(addDays(today, 3)));
  await expect.poll(async () => (await readTask(page, id)).deadline).toBe(at(addDays(today, 3), 17));
  expect((await readTask(page, id)).startAt).toBe(at(today, 9));
});

test('on a phone (360 px): the calendar is an agenda whose task moves a day by Alt+→, and a timeline bar moves by Alt+→ too, times kept', async ({ page, user }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  // Next week: its days are all ahead (a deadline that is set or changed may not be past).
  const next = startOfWeek(addDays(dayKeyOf(Date.now(), ZONE), 7), 0);
  const [from, to, later] = [addDays(next, 1), addDays(next, 2), addDays(next, 3)];
  const title = `Phone ${randomSuffix()}`;
  const id = await createTask(page, { taskTitle: title, assignee: user.email, startAt: at(from, 8), deadline: at(from, 10, 30) });

  await page.goto('/tasks?view=calendar');
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  // One day under another, not a grid.
  const chip = page.getByRole('group', { name: dayName(from) }).getByRole('link', { name: new RegExp(title) });
  await expect(chip).toBeVisible();
  const days = page.getByRole('group', { name: new RegExp(`^(${dayName(from)}|${dayName(to)})$`) });
  const [a, b] = [await days.nth(0).boundingBox(), await days.nth(1).boundingBox()];
  expect(b!.y).toBeGreaterThan(a!.y);
  await chip.focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page.getByRole('group', { name: dayName(to) }).getByRole('link', { name: new RegExp(title) })).toContainText('10:30');
  await expect.poll(async () => (await readTask(page, id)).deadline).toBe(at(to, 10, 30));
  await expectNoSidewaysScroll(page);

  await page.goto('/tasks?view=timeline');
  const bar = page.getByRole('link', { name: new RegExp(title) });
  await expect(bar).toBeVisible();
  await bar.focus();
  await page.keyboard.press('Alt+ArrowRight');
  // Both dates a day later, each at its own time.
  await expect.poll(async () => await readTask(page, id)).toMatchObject({ startAt: at(to, 8), deadline: at(later, 10, 30) });
});

test('calendar and timeline pass axe at 360 and 1280 px, light and dark', async ({ page, user }) => {
  const today = dayKeyOf(Date.now(), ZONE);
  await createTask(page, { taskTitle: `Soon ${randomSuffix()}`, assignee: user.email, startAt: at(today, 9), deadline: at(addDays(today, 1), 17), priority: 'urgent' });
  const done = await createTask(page, { taskTitle: `Done ${randomSuffix()}`, assignee: user.email, deadline: at(addDays(today, 1), 12) });
  await page.request.patch(`/api/tasks/${done}`, { data: { status: 'done' } });
  await createTask(page, { taskTitle: `Open ${randomSuffix()}`, assignee: user.email });
  // Each view at both widths and in both themes, paired (light at one width, dark at the other)
  // so that the test stays short: contrast depends on the theme, layout on the width.
  const views = [
    { view: 'calendar', ready: page.getByRole('complementary', { name: 'No deadline' }).getByRole('link'), count: 1, light: 360 },
    { view: 'timeline', ready: page.getByRole('slider'), count: 2, light: 1280 },
  ];
  for (const { view, ready, count, light } of views) {
    await page.goto(`/tasks?view=${view}`);
    for (const colorScheme of ['light', 'dark'] as const) {
      const width = (colorScheme === 'light') === (light === 360) ? 360 : 1280;
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 800 });
      await expect(ready).toHaveCount(count);
      await expectAccessible(page, `${view} at ${width} px (${colorScheme})`);
    }
  }
});

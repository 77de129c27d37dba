/**
 * The table view of a board and changes to many tasks at once: sorting, a deadline edited in
 * place, three rows picked with Shift+click, their priority set from the bulk bar and put back
 * with Undo, and an Undo refused for a task someone changed since; the table and its bar
 * checked by axe on a phone and a desktop, light and dark; a checklist's progress and the last
 * change in their columns; and the date columns measured against the longest date of every language.
 */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, test } from './fixtures.ts';
import { apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';
import { LANGUAGES } from '#shared/languages.ts';
import { SHORT_DEADLINE_FORMATS } from '#web/features/tasks/utils/deadline.ts';

test.use({ signedIn: true });

const table = (page: Page) => page.getByRole('table', { name: 'Tasks' });
const row = (page: Page, title: string) => table(page).getByRole('row').filter({ has: page.getByRole('link', { name: title, exact: true }) });

/** A board with four tasks of different priorities, opened as a table (a phone chooses the view in a select). */
async function openTable(page: Page, assignee: string) {
  const board = await apiCreateBoard(page.request, `Table ${randomSuffix()}`);
  const tasks = [
    { taskTitle: 'Delta report', priority: 'low' },
    { taskTitle: 'Alpha launch', priority: 'high' },
    { taskTitle: 'Charlie budget', priority: 'normal' },
    { taskTitle: 'Bravo hiring', priority: 'urgent' },
  ] as const;
  const ids: Record<string, string> = {};
  for (const task of tasks) ids[task.taskTitle] = await apiCreateTask(page.request, { ...task, assignee, boardId: board._id });
  await page.goto(`/boards/${board._id}`);
  if ((page.viewportSize()?.width ?? 1280) < 640) await page.getByRole('combobox', { name: 'View' }).selectOption('Table');
  else await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Table' }).click();
  await expect(table(page)).toBeVisible();
  await expect(table(page)).toHaveAttribute('aria-rowcount', '5');
  return { board, ids };
}

test('sorts, edits a deadline in place, sets the priority of three rows at once and undoes it', async ({ page, user }) => {
  const { ids } = await openTable(page, user.email);

  const title = table(page).getByRole('columnheader', { name: /Title/ });
  await title.getByRole('button', { name: 'Title' }).click();
  await expect(title).toHaveAttribute('aria-sort', 'ascending');
  await expect(table(page).getByRole('link')).toHaveText(['Alpha launch', 'Bravo hiring', 'Charlie budget', 'Delta report']);

  // A deadline edited in place: Enter saves it through the task's own update.
  await row(page, 'Charlie budget').getByRole('button', { name: /edit deadline of “Charlie budget”/ }).click();
  await row(page, 'Charlie budget').getByLabel('Deadline of “Charlie budget”').fill('2027-01-15T09:30');
  await page.keyboard.press('Enter');
  await expect(row(page, 'Charlie budget').getByRole('button', { name: /edit deadline/ })).not.toContainText('None');
  await expect
    .poll(async () => ((await (await page.request.get(`/api/tasks/${ids['Charlie budget'] ?? ''}`)).json()) as { data: { task: { deadline: string | null } } }).data.task.deadline)
    // The value typed is wall-clock time in the browser's time zone.
    .toBe(await page.evaluate(() => new Date(2027, 0, 15, 9, 30).toISOString()));

  // Three rows by Shift+click, then one change from the bar.
  await row(page, 'Alpha launch').getByRole('checkbox').click();
  await row(page, 'Charlie budget').getByRole('checkbox').click({ modifiers: ['Shift'] });
  const bar = page.getByRole('region', { name: 'Change the selected tasks' });
  await expect(bar.getByText('3 selected')).toBeVisible();
  await bar.getByRole('combobox', { name: 'Priority' }).selectOption('low');
  await expect(page.getByText('3 tasks changed — Undo')).toBeVisible();
  for (const name of ['Alpha launch', 'Bravo hiring', 'Charlie budget']) await expect(row(page, name).getByRole('button', { name: /edit priority/ })).toContainText('Low');

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('3 tasks put back')).toBeVisible();
  await expect(row(page, 'Alpha launch').getByRole('button', { name: /edit priority/ })).toContainText('High');
  await expect(row(page, 'Bravo hiring').getByRole('button', { name: /edit priority/ })).toContainText('Urgent');
  await expect(row(page, 'Charlie budget').getByRole('button', { name: /edit priority/ })).toContainText('Normal');
  await expect(row(page, 'Delta report').getByRole('button', { name: /edit priority/ })).toContainText('Low');
});

test('the Checklist column shows a task’s progress as its items are checked, and “Last change” sorts the latest change first', async ({ page, user }) => {
  const { ids } = await openTable(page, user.email);
  const charlie = `/api/tasks/${ids['Charlie budget'] ?? ''}/checklist`;
  const items: string[] = [];
  for (const text of ['Quotes', 'Sign-off']) {
    const added = await page.request.post(charlie, { data: { text } });
    expect(added.status()).toBe(201);
    items.push(((await added.json()) as { data: { item: { _id: string } } }).data.item._id);
  }
  await expect(row(page, 'Charlie budget').getByRole('cell', { name: '0 of 2 checklist items done' })).toContainText('0/2');
  expect((await page.request.patch(`${charlie}/${items[0] ?? ''}`, { data: { done: true } })).status()).toBe(200);
  await expect(row(page, 'Charlie budget').getByRole('cell', { name: '1 of 2 checklist items done' })).toContainText('1/2');
  // Still one line: every row is counted 44 px high.
  expect((await row(page, 'Charlie budget').boundingBox())?.height).toBe(44);

  // Bravo changed last: first when sorted by the last change, descending (the second click).
  expect((await page.request.patch(`/api/tasks/${ids['Bravo hiring'] ?? ''}`, { data: { priority: 'normal' } })).status()).toBe(200);
  await expect(row(page, 'Bravo hiring').getByRole('button', { name: /edit priority/ })).toContainText('Normal');
  const changed = table(page).getByRole('columnheader', { name: /Last change/ });
  await changed.getByRole('button', { name: 'Last change' }).click();
  await expect(changed).toHaveAttribute('aria-sort', 'ascending');
  await changed.getByRole('button', { name: 'Last change' }).click();
  await expect(changed).toHaveAttribute('aria-sort', 'descending');
  await expect(table(page).getByRole('link')).toHaveText(['Bravo hiring', 'Charlie budget', 'Alpha launch', 'Delta report']);
});

test('Undo does not overwrite a change someone made since: it says which task, and that task keeps the change', async ({ page, user }) => {
  const { ids } = await openTable(page, user.email);
  await row(page, 'Alpha launch').getByRole('checkbox').click();
  await row(page, 'Bravo hiring').getByRole('checkbox').click();
  const bar = page.getByRole('region', { name: 'Change the selected tasks' });
  await expect(bar.getByText('2 selected')).toBeVisible();
  await bar.getByRole('combobox', { name: 'Priority' }).selectOption('low');
  await expect(page.getByText('2 tasks changed — Undo')).toBeVisible();

  // Another request changes Bravo after the bulk change, before Undo.
  const bravo = `/api/tasks/${ids['Bravo hiring'] ?? ''}`;
  const patched = await page.request.patch(bravo, { data: { priority: 'normal' } });
  expect(patched.status()).toBe(200);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('alert')).toContainText('Not undone: “Bravo hiring” was changed by someone else since.');
  await expect(page.getByText(/put back/)).toHaveCount(0);
  await expect(row(page, 'Bravo hiring').getByRole('button', { name: /edit priority/ })).toContainText('Normal');
  await expect(row(page, 'Alpha launch').getByRole('button', { name: /edit priority/ })).toContainText('Low');
  const stored = async (id: string) => ((await (await page.request.get(`/api/tasks/${id}`)).json()) as { data: { task: { priority: string } } }).data.task.priority;
  expect(await stored(ids['Bravo hiring'] ?? '')).toBe('normal');
  expect(await stored(ids['Alpha launch'] ?? '')).toBe('low');
});

test('the table and its bar pass axe on a phone and a desktop, and in the dark theme', async ({ page, user }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openTable(page, user.email);
  await row(page, 'Alpha launch').getByRole('checkbox').click();
  await expect(page.getByRole('region', { name: 'Change the selected tasks' })).toBeVisible();
  // The title column stays in view while the table scrolls sideways.
  await table(page).hover();
  await page.mouse.wheel(400, 0);
  await expect(table(page).getByRole('columnheader', { name: /Title/ })).toBeInViewport();
  await expect(row(page, 'Alpha launch').getByRole('link')).toBeInViewport();
  await expectAccessible(page, 'the table with a row selected at 360 px');
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectAccessible(page, 'the table with a row selected at 1280 px');
  await page.getByRole('button', { name: 'Dark mode' }).click();
  await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(page, 'the table with a row selected at 1280 px, dark');
});

/**
 * Run in the page (as source text: the browser tests are type-checked without the DOM's types):
 * every day of a year at the widest hours, in each short form of a deadline, each language and
 * both clocks, formatted by the browser's Intl as the app does; the widest of each is shown in the
 * first row's own deadline and start cells. Says which widest text does not fit its cell.
 */
const DATES_THAT_DO_NOT_FIT = String.raw`({ languages, formats }) => {
  const time = document.querySelector('.table-view__col--deadline time');
  const button = time.closest('button');
  const start = time.closest('tr').querySelector('.table-view__col--start');
  // Measured on a canvas in the cell's font (no layout per text); the widest is then laid out in the cells.
  const context = document.createElement('canvas').getContext('2d');
  context.font = getComputedStyle(time).font;
  const problems = [];
  for (const language of languages) for (const hourCycle of ['h12', 'h23']) for (const options of formats) {
    const format = new Intl.DateTimeFormat(language, { ...options, hourCycle });
    let widest = '';
    let width = 0;
    for (let day = 0; day < 365; day++) for (const hour of [0, 10, 12, 22]) {
      const text = format.format(new Date(2026, 0, 1 + day, hour, 58));
      const measured = context.measureText(text).width;
      if (measured > width) [width, widest] = [measured, text];
    }
    time.textContent = widest;
    start.textContent = widest;
    if (button.scrollWidth > button.clientWidth) problems.push(language + ' ' + hourCycle + ': "' + widest + '" in the deadline column');
    if (start.scrollWidth > start.clientWidth) problems.push(language + ' ' + hourCycle + ': "' + widest + '" in the start column');
  }
  return problems;
}`;

/** A hint longer than its column, in the first row: whether the date and the flag stay whole and the relative part ends in an ellipsis. */
const LONG_HINT = String.raw`(() => {
  const cell = document.querySelector('.table-view__col--deadline time').closest('td');
  const relative = cell.querySelector('.deadline__relative');
  relative.textContent = 'dentro de 10 segundos, dentro de 10 segundos';
  const flag = cell.querySelector('.deadline__flag');
  const button = cell.querySelector('button');
  return { buttonFits: button.scrollWidth <= button.clientWidth, flagFits: flag.scrollWidth <= flag.clientWidth, ellipsis: getComputedStyle(relative).textOverflow, cut: relative.scrollWidth > relative.clientWidth };
})()`;

test('on a phone the date columns hold the longest date of every language and clock, and a long hint ends in an ellipsis', async ({ page, user }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const board = await apiCreateBoard(page.request, `Dates ${randomSuffix()}`);
  // Due within the hour: the hint has its flag ("Due soon") and a relative time.
  await apiCreateTask(page.request, { taskTitle: 'Soon report', assignee: user.email, boardId: board._id, deadline: new Date(Date.now() + 30 * 60_000).toISOString() });
  await page.goto(`/boards/${board._id}?view=table`);
  await expect(row(page, 'Soon report').locator('.deadline__flag')).toBeVisible();
  // Its hint goes under the date, and the row keeps the height every row is counted at.
  expect((await row(page, 'Soon report').boundingBox())?.height).toBe(44);
  const options = { languages: LANGUAGES, formats: SHORT_DEADLINE_FORMATS };
  expect(await page.evaluate<string[]>(`(${DATES_THAT_DO_NOT_FIT})(${JSON.stringify(options)})`)).toEqual([]);
  expect(await page.evaluate<Record<string, unknown>>(LONG_HINT)).toEqual({ buttonFits: true, flagFits: true, ellipsis: 'ellipsis', cut: true });
});

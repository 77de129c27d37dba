/** The board's view switch, search, sort, overdue count and Reopen, against the real API. */
import { apiCreateTask, expect, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { board, boardControls } from './support/pages.ts';

test.use({ signedIn: true });

const DAY = 86_400_000;

test('search runs as you type, lands in the URL and survives a reload', async ({ page, user }) => {
  const tag = randomSuffix();
  await apiCreateTask(page.request, { taskTitle: `Pay the invoice ${tag}`, assignee: user.email });
  await apiCreateTask(page.request, { taskTitle: `Book a room ${tag}`, assignee: user.email });
  await page.goto('/tasks');
  const b = board(page);
  const c = boardControls(page);
  await expect(b.cards).toHaveCount(2);

  await c.search.fill('INVOICE');
  await expect(page).toHaveURL(/[?&]q=INVOICE/);
  await expect(b.cards).toHaveCount(1);
  await expect(b.card(`Pay the invoice ${tag}`)).toBeVisible();

  await page.reload();
  await expect(c.search).toHaveValue('INVOICE');
  await expect(b.cards).toHaveCount(1);

  await c.search.fill('nothing like this');
  await expect(page.getByText('No tasks match “nothing like this”')).toBeVisible();
  await c.search.fill('');
  await expect(b.cards).toHaveCount(2);
  await expect(page).toHaveURL((url) => !url.searchParams.has('q'));
});

test('sort by deadline (soonest first, none last) and by priority, kept in the URL', async ({ page, user }) => {
  const tag = randomSuffix();
  const later = `Later ${tag}`;
  const sooner = `Sooner ${tag}`;
  const none = `No deadline ${tag}`;
  await apiCreateTask(page.request, { taskTitle: later, assignee: user.email, priority: 'low', deadline: new Date(Date.now() + 5 * DAY).toISOString() });
  await apiCreateTask(page.request, { taskTitle: none, assignee: user.email, priority: 'urgent' });
  await apiCreateTask(page.request, { taskTitle: sooner, assignee: user.email, priority: 'high', deadline: new Date(Date.now() + DAY).toISOString() });
  await page.goto('/tasks');
  const b = board(page);
  const c = boardControls(page);
  const titles = () => b.todo.getByRole('article').getByRole('heading').allInnerTexts();
  await expect(b.cards).toHaveCount(3);
  await expect.poll(titles).toEqual([sooner, none, later]); // newest first

  await c.sort.selectOption('Deadline');
  await expect(page).toHaveURL(/[?&]sort=deadline/);
  await expect.poll(titles).toEqual([sooner, later, none]);

  await c.sort.selectOption('Priority');
  await expect.poll(titles).toEqual([none, sooner, later]);
  await page.reload();
  await expect(c.sort).toHaveValue('priority');
  await expect.poll(titles).toEqual([none, sooner, later]);
});

test('view switch: all, assigned to me, created by me — with the priority filter', async ({ page, user, createUser, seedTask }) => {
  const other = await createUser();
  const tag = randomSuffix();
  await apiCreateTask(page.request, { taskTitle: `Mine for them ${tag}`, assignee: other.email, priority: 'high' });
  await apiCreateTask(page.request, { taskTitle: `Mine for me ${tag}`, assignee: user.email, priority: 'low' });
  seedTask(other, { taskTitle: `Theirs for me ${tag}`, assignee: user.email, priority: 'high' });
  await page.goto('/tasks');
  const b = board(page);
  const c = boardControls(page);
  await expect(b.cards).toHaveCount(3);

  await c.view('Assigned to me').click();
  await expect(c.view('Assigned to me')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]show=assigned-to-me/);
  await expect(b.cards).toHaveCount(2);
  await expect(b.card(`Mine for them ${tag}`)).toHaveCount(0);

  await c.view('Created by me').click();
  await expect(b.cards).toHaveCount(2);
  await expect(b.card(`Theirs for me ${tag}`)).toHaveCount(0);

  await b.filter('High').click();
  await expect(b.cards).toHaveCount(1);
  await expect(b.card(`Mine for them ${tag}`)).toBeVisible();
  await expect(page).toHaveURL(/priority=high/);
  await expect(page).toHaveURL(/[?&]show=created-by-me/);

  // An address written before whose tasks moved to ?show= still works, and is rewritten in place.
  await page.goto('/tasks?view=assigned-to-me');
  await expect(c.view('Assigned to me')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/\/tasks\?show=assigned-to-me$/);
  await expect(b.cards).toHaveCount(2);
});

test('the header counts overdue tasks, and a done task can be reopened', async ({ page, user, seedTask }) => {
  const tag = randomSuffix();
  seedTask(user, { taskTitle: `Late ${tag}`, assignee: user.email, deadline: new Date(Date.now() - DAY) });
  seedTask(user, { taskTitle: `Finished ${tag}`, assignee: user.email, status: 'done', deadline: new Date(Date.now() - DAY) });
  await page.goto('/tasks');
  const b = board(page);
  const c = boardControls(page);
  await expect(c.overdue).toHaveText('1 overdue');

  const done = b.done.getByRole('article', { name: `Finished ${tag}` });
  await c.reopen(done).click();
  await expect(b.todo.getByRole('article', { name: `Finished ${tag}` })).toBeVisible();
  await expect(b.done.getByRole('article')).toHaveCount(0);
  // Reopened with a past deadline: now it is overdue too.
  await expect(c.overdue).toHaveText('2 overdue');
});

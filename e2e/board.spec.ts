/** The board: create, filter, edit, complete, delete, count badges, cards. */
import type { Page, Request } from '@playwright/test';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '../shared/messages.ts';
import { apiCreateTask, expect, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { alertWith, board, cardActions, countText } from './support/pages.ts';

test.use({ signedIn: true });

const title = (label: string) => `${label} ${randomSuffix()}`;

async function openBoard(page: Page) {
  await page.goto('/tasks');
  const b = board(page);
  await expect(b.createTask).toBeVisible();
  return b;
}

/** Holds matching requests until `release()` is called, to observe in-flight states without sleeping. */
async function holdRequests(page: Page, url: string, method: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    if (route.request().method() === method) await gate;
    await route.fallback();
  });
  return release;
}

test('an empty board shows both columns with zero counts and an empty state', async ({ page }) => {
  const b = await openBoard(page);
  await expect(b.todo).toBeVisible();
  await expect(b.done).toBeVisible();
  await expect(b.todoCount).toHaveText(countText(0));
  await expect(b.doneCount).toHaveText(countText(0));
  await expect(b.cards).toHaveCount(0);
  await expect(b.filter('All Tasks')).toHaveAttribute('aria-pressed', 'true');
});

test('creating with a blank title shows "Task Title and Assignee are required." and sends nothing', async ({ page }) => {
  const b = await openBoard(page);
  await b.createTask.click();
  await expect(b.dialog).toBeVisible();
  const posts: Request[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/api/tasks')) posts.push(req);
  });
  // Three spaces pass the browser's required/minlength checks but are empty after trimming.
  await b.form.taskTitle.fill('   ');
  await b.form.assignee.fill('someone@example.test');
  await b.form.submit.click();
  await expect(alertWith(b.dialog, CLIENT_MESSAGES.taskRequired)).toBeVisible();
  expect(posts).toHaveLength(0);
});

test('creating shows "Creating Task..." while busy, then resets the form and refreshes the board', async ({ page, user }) => {
  const b = await openBoard(page);
  await b.createTask.click();
  await expect(b.form.priority).toHaveValue('normal');
  const taskTitle = title('Write the release notes');
  await b.form.workTitle.fill('Release 2.0');
  await b.form.taskTitle.fill(taskTitle);
  await b.form.assignee.fill(user.email);
  await b.form.priority.selectOption('high');
  const release = await holdRequests(page, '**/api/tasks', 'POST');
  await b.form.submit.click();
  await expect(b.form.submit).toHaveText(CLIENT_MESSAGES.creatingTask);
  await expect(b.form.submit).toBeDisabled();
  release();
  const card = b.card(taskTitle);
  await expect(card).toBeVisible();
  await expect(b.todo.getByRole('article')).toHaveCount(1);
  await expect(b.todoCount).toHaveText(countText(1));
  await expect(card).toContainText('Release 2.0');
  await expect(card).toContainText(/high/i);
  await expect(card).toContainText(user.email);
  await expect(card).toContainText(user.fullName);
  // The form is reset for the next task (panel may stay open or close; if open, it is empty).
  if (await b.dialog.isVisible()) {
    await expect(b.form.taskTitle).toHaveValue('');
    await expect(b.form.assignee).toHaveValue('');
    await expect(b.form.priority).toHaveValue('normal');
  }
});

test('a failed create shows the server message and keeps the input', async ({ page }) => {
  const b = await openBoard(page);
  await b.createTask.click();
  await page.route('**/api/tasks', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ status: 'fail', code: 'VALIDATION_FAILED', message: SERVER_MESSAGES.validationFailed }) })
      : route.fallback(),
  );
  await b.form.taskTitle.fill('Kept title');
  await b.form.assignee.fill('kept@example.test');
  await b.form.submit.click();
  await expect(alertWith(b.dialog, SERVER_MESSAGES.validationFailed)).toBeVisible();
  await expect(b.form.taskTitle).toHaveValue('Kept title');
  await expect(b.form.assignee).toHaveValue('kept@example.test');
});

test('every priority filter is aria-pressed, fetched with ?priority= and shows only its tasks', async ({ page, user }) => {
  const titles = { urgent: title('Urgent one'), high: title('High one'), normal: title('Normal one'), low: title('Low one') };
  for (const [priority, taskTitle] of Object.entries(titles)) {
    await apiCreateTask(page.request, { taskTitle, assignee: user.email, priority: priority as keyof typeof titles });
  }
  const b = await openBoard(page);
  await expect(b.cards).toHaveCount(4);
  await expect(b.todoCount).toHaveText(countText(4));

  const filters = [
    ['Urgent', 'urgent'],
    ['High', 'high'],
    ['Normal', 'normal'],
    ['Low', 'low'],
  ] as const;
  for (const [name, priority] of filters) {
    const fetched = page.waitForRequest((req) => req.method() === 'GET' && new URL(req.url()).pathname === '/api/tasks' && new URL(req.url()).searchParams.get('priority') === priority);
    await b.filter(name).click();
    await fetched;
    await expect(b.filter(name)).toHaveAttribute('aria-pressed', 'true');
    for (const other of ['All Tasks', 'Urgent', 'High', 'Normal', 'Low'] as const) {
      if (other !== name) await expect(b.filter(other)).toHaveAttribute('aria-pressed', 'false');
    }
    await expect(b.cards).toHaveCount(1);
    await expect(b.card(titles[priority])).toBeVisible();
    await expect(b.todoCount).toHaveText(countText(1));
  }
  await b.filter('All Tasks').click();
  await expect(b.filter('All Tasks')).toHaveAttribute('aria-pressed', 'true');
  await expect(b.cards).toHaveCount(4);
});

test('edit: Cancel keeps the task, Save changes assignee, priority and start, one card at a time', async ({ page, user, createUser }) => {
  const colleague = await createUser();
  const first = title('Edit me');
  const second = title('Other card');
  await apiCreateTask(page.request, { taskTitle: first, assignee: user.email, priority: 'low' });
  await apiCreateTask(page.request, { taskTitle: second, assignee: user.email });
  const b = await openBoard(page);
  const card = b.card(first);
  const actions = cardActions(card);

  await actions.edit.click();
  await expect(actions.assignee).toHaveValue(user.email);
  await expect(actions.priority).toHaveValue('low');
  await actions.assignee.fill(colleague.email);
  await actions.priority.selectOption('urgent');
  await actions.cancel.click();
  await expect(actions.assignee).toHaveCount(0);
  await expect(card).toContainText(user.email);
  await expect(card).toContainText(/low/i);

  // Only one card is edited at a time.
  await actions.edit.click();
  await cardActions(b.card(second)).edit.click();
  await expect(page.getByRole('button', { name: /^Save/ })).toHaveCount(1);
  await expect(cardActions(b.card(second)).save).toBeVisible();
  await cardActions(b.card(second)).cancel.click();

  await actions.edit.click();
  await actions.assignee.fill(colleague.email);
  await actions.priority.selectOption('urgent');
  await actions.start.fill('2031-06-18T08:15');
  const saved = page.waitForResponse((res) => res.request().method() === 'PATCH' && res.url().includes('/api/tasks/'));
  await actions.save.click();
  const answer = await saved;
  expect(answer.status()).toBe(200);
  const { data } = (await answer.json()) as { data: { task: { startAt: string | null } } };
  expect(data.task.startAt).toBe(await page.evaluate(() => new Date(2031, 5, 18, 8, 15).toISOString()));
  await expect(actions.save).toHaveCount(0);
  await expect(card).toContainText(colleague.email);
  await expect(card).toContainText(/urgent/i);
  // The saved start is what the next edit begins with.
  await actions.edit.click();
  await expect(actions.start).toHaveValue('2031-06-18T08:15');
  await actions.cancel.click();
});

test('Mark complete moves the task to Completed, updates both badges, and is not offered there', async ({ page, user }) => {
  const taskTitle = title('Finish me');
  await apiCreateTask(page.request, { taskTitle, assignee: user.email });
  await apiCreateTask(page.request, { taskTitle: title('Still to do'), assignee: user.email });
  const b = await openBoard(page);
  await expect(b.todoCount).toHaveText(countText(2));
  await expect(b.doneCount).toHaveText(countText(0));
  await cardActions(b.card(taskTitle)).complete.click();
  await expect(b.done.getByRole('article').filter({ hasText: taskTitle })).toBeVisible();
  await expect(b.todo.getByRole('article').filter({ hasText: taskTitle })).toHaveCount(0);
  await expect(b.todoCount).toHaveText(countText(1));
  await expect(b.doneCount).toHaveText(countText(1));
  await expect(cardActions(b.card(taskTitle)).complete).toHaveCount(0);
});

test('Delete asks first: Cancel keeps the task, confirming removes it', async ({ page, user }) => {
  const taskTitle = title('Delete me');
  await apiCreateTask(page.request, { taskTitle, assignee: user.email });
  const b = await openBoard(page);
  const card = b.card(taskTitle);

  await cardActions(card).del.click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: /^Cancel/ }).click();
  await expect(confirm).toHaveCount(0);
  await expect(card).toBeVisible();
  await expect(b.todoCount).toHaveText(countText(1));

  await cardActions(card).del.click();
  const deleted = page.waitForResponse((res) => res.request().method() === 'DELETE');
  await page.getByRole('alertdialog').getByRole('button', { name: /^Delete/ }).click();
  expect((await deleted).status()).toBe(204);
  await expect(card).toHaveCount(0);
  await expect(b.todoCount).toHaveText(countText(0));
  // It is gone on the server too.
  const list = (await (await page.request.get('/api/tasks')).json()) as { data: { tasks: { taskTitle: string }[] } };
  expect(list.data.tasks.map((t) => t.taskTitle)).not.toContain(taskTitle);
});

test('a card shows work title, title, priority, assignee, assignor and deadline; overdue is marked', async ({ page, user, seedTask }) => {
  const future = title('Future task');
  const overdue = title('Overdue task');
  const deadline = new Date(Date.now() + 3 * 24 * 3600_000);
  deadline.setUTCSeconds(0, 0);
  await apiCreateTask(page.request, { taskTitle: future, assignee: user.email, workTitle: 'Project Apollo', priority: 'urgent', deadline: deadline.toISOString() });
  seedTask(user, { taskTitle: overdue, assignee: user.email, deadline: new Date(Date.now() - 2 * 24 * 3600_000), priority: 'high' });
  const b = await openBoard(page);

  const card = b.card(future);
  await expect(card).toContainText('Project Apollo');
  await expect(card).toContainText(/urgent/i);
  await expect(card).toContainText(user.email);
  await expect(card).toContainText(user.fullName);
  // The deadline in the viewer's locale (en-US) and time zone (Europe/Berlin), with a relative hint.
  const local = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', month: 'short', day: 'numeric' }).format(deadline);
  await expect(card).toContainText(local);
  await expect(card).toContainText(/in 3 days|in 2 days|in 72 hours/i);
  await expect(card).not.toContainText(/overdue/i);

  await expect(b.card(overdue)).toContainText(/overdue/i);
});

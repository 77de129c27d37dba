/** The task page /tasks/:id: deep link, reload, back, description, comments and activity. */
import { apiCreateTask, expect, newSignedInContext, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { board, taskPage } from './support/pages.ts';

test.use({ signedIn: true });

test('a card opens the task as a panel over the board; reload keeps it, back closes it', async ({ page, user }) => {
  const title = `Open me ${randomSuffix()}`;
  const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email, workTitle: 'Panel' });
  await page.goto('/tasks?sort=priority');
  const b = board(page);
  const t = taskPage(page);
  await b.card(title).getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(`/tasks/${id}?sort=priority`);
  await expect(t.panel).toBeVisible();
  await expect(t.panel.getByRole('heading', { name: title })).toBeVisible();
  await expect(page).toHaveTitle(`${title} · Taskwise`);
  await expect(b.createTask).toBeAttached(); // the board is still there, behind the panel

  await page.reload();
  await expect(t.panel.getByRole('heading', { name: title })).toBeVisible();
  await expect(t.panel.getByText(user.email).first()).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL('/tasks?sort=priority');
  await expect(t.panel).toHaveCount(0);
  await expect(b.card(title)).toBeVisible();

  await page.goForward();
  await expect(t.panel.getByRole('heading', { name: title })).toBeVisible();
  await t.close.click();
  await expect(t.panel).toHaveCount(0);
  await expect(page).toHaveURL('/tasks?sort=priority');
});

test('on a narrow screen the task is a page of its own, and Esc goes back', async ({ page, user }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const title = `Narrow ${randomSuffix()}`;
  const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email });
  await page.goto(`/tasks/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(board(page).createTask).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
});

test('a task you cannot see says "Task not found"', async ({ page, browser, createUser }) => {
  const stranger = await createUser();
  const context = await newSignedInContext(browser, stranger);
  const theirs = await apiCreateTask(context.request, { taskTitle: `Private ${randomSuffix()}`, assignee: stranger.email });
  await context.close();
  for (const id of [theirs, 'no-such-task']) {
    await page.goto(`/tasks/${id}`);
    await expect(page.getByRole('heading', { name: 'Task not found' })).toBeVisible();
  }
});

test('the description is edited in a textarea and shown as text with line breaks and safe links', async ({ page, user }) => {
  const title = `Describe me ${randomSuffix()}`;
  const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email });
  await page.goto(`/tasks/${id}`);
  const t = taskPage(page);
  await t.editDescription.click();
  await expect(t.description).toBeFocused();
  await t.description.fill('Spec at https://example.com/spec.\n<b>not bold</b> javascript:alert(1)');
  await t.saveDescription.click();
  await expect(t.description).toHaveCount(0);

  const link = page.getByRole('link', { name: 'https://example.com/spec' });
  await expect(link).toHaveAttribute('href', 'https://example.com/spec');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  const text = page.locator('.task-details__text');
  await expect(text).toHaveText('Spec at https://example.com/spec.\n<b>not bold</b> javascript:alert(1)');
  await expect(text.locator('b')).toHaveCount(0);
  // The line break is kept on screen (innerText follows CSS: a collapsed break would be a space).
  expect(await text.innerText()).toBe('Spec at https://example.com/spec.\n<b>not bold</b> javascript:alert(1)');

  await page.reload();
  await expect(page.getByRole('link', { name: 'https://example.com/spec' })).toBeVisible();
  await expect(t.activity).toContainText('changed');
  await expect(t.activity).toContainText('description');
});

test('comments: post, edit and delete your own; another person’s are read-only', async ({ page, user, browser, createUser }) => {
  const other = await createUser();
  const title = `Talk about it ${randomSuffix()}`;
  const id = await apiCreateTask(page.request, { taskTitle: title, assignee: other.email });
  const context = await newSignedInContext(browser, other);
  const res = await context.request.post(`/api/tasks/${id}/comments`, { data: { body: 'Their first word' } });
  expect(res.status()).toBe(201);
  await context.close();

  await page.goto(`/tasks/${id}`);
  const t = taskPage(page);
  const theirs = t.comment(other.fullName);
  await expect(theirs).toContainText('Their first word');
  await expect(theirs.getByRole('button')).toHaveCount(0);

  await t.newComment.fill('  Mine, see https://example.com/x  ');
  await t.postComment.click();
  const mine = t.comment(user.fullName);
  await expect(mine).toContainText('Mine, see https://example.com/x');
  await expect(t.newComment).toHaveValue('');

  await mine.getByRole('button', { name: 'Edit comment' }).click();
  await mine.getByRole('combobox', { name: 'Edit comment' }).fill('Mine, edited');
  await mine.getByRole('button', { name: /^Sav/ }).click();
  await expect(mine).toContainText('Mine, edited');
  await expect(mine).toContainText('edited');

  await page.reload();
  await expect(t.comment(user.fullName)).toContainText('Mine, edited');
  await t.comment(user.fullName).getByRole('button', { name: 'Delete comment' }).click();
  await page.getByRole('alertdialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment' }).click();
  await expect(t.comment(user.fullName)).toHaveCount(0);
  await expect(t.comment(other.fullName)).toBeVisible();
  await expect(t.activity).toContainText('commented');
});

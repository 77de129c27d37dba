/**
 * The live board: two people in two browser contexts, each change showing in the other's board
 * without a reload, and the conflict dialog when both edit the same task.
 */
import type { Browser, Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, newSignedInContext, test, type TestUser } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { board, cardActions, countText, taskPage } from './support/pages.ts';

/** The board of `page`, once its data is shown and its live connection is open. */
async function openLiveBoard(page: Page) {
  await page.goto('/tasks');
  const b = board(page);
  await expect(b.todoCount).toHaveText(/^\d+ tasks?$/);
  await expect(page.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');
  return b;
}

const liveMessage = (page: Page, text: string) => page.getByTestId('live-activity').getByText(text, { exact: true });

async function twoPeople(browser: Browser, createUser: (o?: Partial<TestUser>) => Promise<TestUser>) {
  const alice = await createUser({ fullName: `Alice ${randomSuffix()}` });
  const bob = await createUser({ fullName: `Bob ${randomSuffix()}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  const alicePage = await aliceContext.newPage();
  const bobPage = await bobContext.newPage();
  return {
    alice,
    bob,
    alicePage,
    bobPage,
    close: async () => {
      await aliceContext.close();
      await bobContext.close();
    },
  };
}

test('create, complete, edit, reassign away and delete show on the other board without a reload', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const a = await openLiveBoard(alicePage);
    const b = await openLiveBoard(bobPage);
    await expect(b.todoCount).toHaveText(countText(0));

    // Alice creates a task for Bob: it appears on Bob's board, counted, and he is told.
    const title = `Send the invoice ${randomSuffix()}`;
    await a.createTask.click();
    await a.form.taskTitle.fill(title);
    await a.form.assignee.fill(bob.email);
    await a.form.submit.click();
    await expect(a.card(title)).toBeVisible();
    await a.form.close.click();
    await expect(b.todo.getByRole('article', { name: title })).toBeVisible();
    await expect(b.todoCount).toHaveText(countText(1));
    await expect(liveMessage(bobPage, `${alice.fullName} assigned “${title}” to you`)).toBeAttached();

    // Bob completes it: Alice sees it move to her Completed column.
    await cardActions(b.card(title)).complete.click();
    await expect(a.done.getByRole('article', { name: title })).toBeVisible();
    await expect(a.todo.getByRole('article', { name: title })).toHaveCount(0);
    await expect(a.doneCount).toHaveText(countText(1));
    await expect(liveMessage(alicePage, `${bob.fullName} completed “${title}”`)).toBeAttached();

    // Alice edits the priority: Bob's card follows.
    await cardActions(a.card(title)).edit.click();
    await cardActions(a.card(title)).priority.selectOption('high');
    await cardActions(a.card(title)).save.click();
    await expect(b.card(title)).toContainText('High priority');
    await expect(liveMessage(bobPage, `${alice.fullName} edited “${title}”`)).toBeAttached();

    // Alice assigns it to someone else: it leaves Bob's board (and his count).
    const carol = await createUser();
    await cardActions(a.card(title)).edit.click();
    await cardActions(a.card(title)).assignee.fill(carol.email);
    await cardActions(a.card(title)).save.click();
    await expect(a.card(title)).toContainText(carol.email);
    await expect(b.card(title)).toHaveCount(0);
    await expect(b.doneCount).toHaveText(countText(0));
    await expect(liveMessage(bobPage, `${alice.fullName} removed “${title}” from your board`)).toBeAttached();

    // A second task, then deleted by Alice: it comes and goes on Bob's board.
    const second = `Book the venue ${randomSuffix()}`;
    await apiCreateTask(alicePage.request, { taskTitle: second, assignee: bob.email });
    await expect(b.card(second)).toBeVisible();
    await expect(a.card(second)).toBeVisible();
    await cardActions(a.card(second)).del.click();
    await alicePage.getByRole('alertdialog', { name: 'Delete task?' }).getByRole('button', { name: 'Delete task' }).click();
    await expect(a.card(second)).toHaveCount(0);
    await expect(b.card(second)).toHaveCount(0);
    await expect(b.todoCount).toHaveText(countText(0));
  } finally {
    await close();
  }
});

test('a save that meets someone else\'s change opens the conflict dialog; both choices work', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const title = `Shared task ${randomSuffix()}`;
    await apiCreateTask(alicePage.request, { taskTitle: title, assignee: bob.email, priority: 'normal' });
    const a = await openLiveBoard(alicePage);
    const b = await openLiveBoard(bobPage);
    const aliceCard = cardActions(a.card(title));
    const bobCard = cardActions(b.card(title));

    // Alice starts editing; meanwhile Bob saves another priority, which Alice's card shows.
    await aliceCard.edit.click();
    await aliceCard.priority.selectOption('urgent');
    await bobCard.edit.click();
    await bobCard.priority.selectOption('low');
    await bobCard.save.click();
    await expect(a.card(title)).toContainText('Low priority');

    // Alice saves: the dialog shows theirs and hers, field by field, and is accessible.
    await aliceCard.save.click();
    const dialog = alicePage.getByRole('alertdialog', { name: 'This task changed while you were working on it' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${bob.fullName} saved a change to this task before you did.`);
    const priorityRow = dialog.getByRole('listitem').filter({ has: alicePage.getByRole('heading', { name: 'Priority' }) });
    await expect(priorityRow).toContainText('TheirsLow (was Normal)');
    await expect(priorityRow).toContainText('YoursUrgent');
    await expect(dialog.getByRole('button', { name: 'Keep theirs', exact: true })).toBeFocused();
    await expectAccessible(alicePage, 'the conflict dialog');

    // "Apply mine on top": Alice's priority wins, on both boards.
    await dialog.getByRole('button', { name: 'Apply mine on top' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(a.card(title)).toContainText('Urgent priority');
    await expect(b.card(title)).toContainText('Urgent priority');
    await expect(aliceCard.edit).toBeFocused();

    // Again, and this time "Keep theirs" (by Esc): Bob's change stays, nothing more is sent.
    await aliceCard.edit.click();
    await aliceCard.priority.selectOption('high');
    await bobCard.edit.click();
    await bobCard.assignee.fill(alice.email);
    await bobCard.save.click();
    await expect(a.card(title)).toContainText(alice.email);
    await aliceCard.save.click();
    await expect(dialog).toBeVisible();
    const assigneeRow = dialog.getByRole('listitem').filter({ has: alicePage.getByRole('heading', { name: 'Assignee' }) });
    await expect(assigneeRow).toContainText(`Theirs${alice.email} (was ${bob.email})`);
    await expect(assigneeRow).toContainText('YoursNot changed by you');
    await alicePage.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(a.card(title)).toContainText('Urgent priority');
    await expect(a.card(title)).toContainText(alice.email);
    await expect(aliceCard.edit).toBeFocused();
  } finally {
    await close();
  }
});

test('comments another person posts, edits and deletes show on an open task page without a reload', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const title = `Talk it through ${randomSuffix()}`;
    const id = await apiCreateTask(alicePage.request, { taskTitle: title, assignee: bob.email });

    // Bob has the task page open, its live connection up.
    await bobPage.goto(`/tasks/${id}`);
    const b = taskPage(bobPage);
    await expect(b.comments.getByRole('heading', { name: 'Comments (0)' })).toBeVisible();
    await expect(bobPage.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');

    // Alice comments on her own task page.
    await alicePage.goto(`/tasks/${id}`);
    const a = taskPage(alicePage);
    await a.newComment.fill('First thought');
    await a.postComment.click();
    await expect(a.comment(alice.fullName)).toContainText('First thought');

    await expect(b.comment(alice.fullName)).toContainText('First thought');
    await expect(b.comments.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();
    await expect(b.activity).toContainText('commented');
    // Alice's comment is hers: Bob gets no buttons for it.
    await expect(b.comment(alice.fullName).getByRole('button')).toHaveCount(0);

    // She edits it: Bob reads the new text.
    const mine = a.comment(alice.fullName);
    await mine.getByRole('button', { name: 'Edit comment' }).click();
    await mine.getByRole('combobox', { name: 'Edit comment' }).fill('Second thought');
    await mine.getByRole('button', { name: /^Sav/ }).click();
    await expect(mine).toContainText('Second thought');
    await expect(b.comment(alice.fullName)).toContainText('Second thought');
    await expect(b.comment(alice.fullName)).not.toContainText('First thought');

    // She deletes it: it goes from Bob's page, and the count with it.
    await mine.getByRole('button', { name: 'Delete comment' }).click();
    await alicePage.getByRole('alertdialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment' }).click();
    await expect(a.comment(alice.fullName)).toHaveCount(0);
    await expect(b.comment(alice.fullName)).toHaveCount(0);
    await expect(b.comments.getByRole('heading', { name: 'Comments (0)' })).toBeVisible();
  } finally {
    await close();
  }
});

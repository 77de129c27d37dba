/**
 * The queue of changes in Chromium: changes made offline show at once, wait, and reach the
 * server in the order made once the browser is online again; a conflict with another member's
 * edit opens the conflict dialog; a change the server refuses is rolled back with a message
 * while the changes after it go through.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, test, twoPeople } from './fixtures.ts';
import { apiAddMember, apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';
import { alertWith, board, cardActions, taskPage } from './support/pages.ts';
import { tmpRoot } from './support/paths.ts';

const SHOTS = process.env.OFFLINE_SHOTS_DIR ?? join(tmpRoot, 'shots', 'offline-queue');

interface ApiTask {
  _id: string;
  taskTitle: string;
  status: string;
  priority: string;
  assignee: string;
}

async function getJson<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  return ((await res.json()) as { data: T }).data;
}

/** Creates a task from the board's form (the dialog stays busy while offline: it is closed). */
async function createFromBoard(page: Page, title: string, assignee: string) {
  const b = board(page);
  await b.createTask.click();
  await b.form.taskTitle.fill(title);
  await b.form.assignee.fill(assignee);
  await b.form.submit.click();
  await expect(b.card(title)).toBeVisible();
  if (await b.dialog.isVisible()) await b.form.close.click();
}

async function editPriority(page: Page, title: string, priority: string) {
  const actions = cardActions(board(page).card(title));
  await actions.edit.click();
  await actions.priority.selectOption({ label: priority });
  await actions.save.click();
  await expect(board(page).card(title)).toContainText(`${priority} priority`);
}

test('changes made offline show at once and reach the server in the order made once online', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const shared = await apiCreateBoard(alicePage.request, `Trip ${randomSuffix()}`);
    await apiAddMember(alicePage.request, shared._id, bob.email, 'member');
    const title = `Offline target ${randomSuffix()}`;
    const id = await apiCreateTask(alicePage.request, { taskTitle: title, assignee: alice.email, boardId: shared._id });
    expect((await alicePage.request.post(`/api/tasks/${id}/checklist`, { data: { text: 'Pack bags' } })).status()).toBe(201);

    await alicePage.goto(`/boards/${shared._id}`);
    const a = board(alicePage);
    const t = taskPage(alicePage);
    await expect(a.card(title)).toBeVisible();
    // Opened once online, so the task's panel is on the device.
    await a.card(title).getByRole('link').first().click();
    await expect(t.panel.getByRole('checkbox', { name: 'Pack bags' })).toBeVisible();
    await expect(t.comments).toContainText('No comments yet.');
    await t.close.click();

    await alicePage.context().setOffline(true);
    const made = `Made offline ${randomSuffix()}`;
    await createFromBoard(alicePage, made, alice.email);
    await editPriority(alicePage, title, 'Urgent');
    await a.card(title).getByRole('link').first().click();
    await t.panel.getByRole('checkbox', { name: 'Pack bags' }).check();
    await expect(t.panel.getByRole('checkbox', { name: 'Pack bags' })).toBeChecked();
    await t.newComment.fill('Written on the train');
    await t.postComment.click();
    await expect(t.comment(alice.fullName)).toContainText('Written on the train');
    // Queued: the box is free for the next one.
    await expect(t.newComment).toHaveValue('');
    await t.panel.getByRole('button', { name: 'Mark complete' }).click();
    await expect(t.panel.getByRole('button', { name: 'Completing…' })).toBeVisible();
    // The status says so, and the column select shows the board's done column.
    await expect(t.panel.locator('.status-pill')).toHaveText('Completed');
    await expect(t.panel.getByRole('combobox', { name: 'Move to column' }).locator('option:checked')).toHaveText('Completed');
    await alicePage.screenshot({ path: `${SHOTS}/offline-changes-shown.png` });

    // Nothing reached the server yet.
    expect((await getJson<{ task: ApiTask }>(bobPage, `/api/tasks/${id}`)).task.priority).toBe('normal');

    await alicePage.context().setOffline(false);
    await expect
      .poll(async () => {
        const { task } = await getJson<{ task: ApiTask }>(bobPage, `/api/tasks/${id}`);
        return `${task.priority} ${task.status}`;
      })
      .toBe('urgent done');
    const { items } = await getJson<{ items: { text: string; done: boolean }[] }>(bobPage, `/api/tasks/${id}/checklist`);
    expect(items).toEqual([expect.objectContaining({ text: 'Pack bags', done: true })]);
    await expect.poll(async () => (await getJson<{ comments: { body: string }[] }>(bobPage, `/api/tasks/${id}/comments`)).comments.map((c) => c.body)).toEqual(['Written on the train']);
    const { tasks } = await getJson<{ tasks: ApiTask[] }>(bobPage, `/api/tasks?board=${shared._id}&status=todo`);
    expect(tasks.filter((task) => task.taskTitle === made)).toHaveLength(1);

    // In the order made: the priority, then the tick, then the comment, then completing.
    const { activity } = await getJson<{ activity: { type: string; at: string; changes?: Record<string, unknown>; checklist?: { action: string } }[] }>(bobPage, `/api/tasks/${id}/activity`);
    const at = (pick: (entry: (typeof activity)[number]) => boolean) => Date.parse(activity.find(pick)?.at ?? 'x');
    const priorityAt = at((e) => e.changes?.priority !== undefined);
    const tickAt = at((e) => e.checklist?.action === 'checked');
    const doneAt = at((e) => e.type === 'completed');
    const commentAt = Date.parse((await getJson<{ comments: { createdAt: string }[] }>(bobPage, `/api/tasks/${id}/comments`)).comments[0]?.createdAt ?? 'x');
    expect(priorityAt).toBeLessThanOrEqual(tickAt);
    expect(tickAt).toBeLessThanOrEqual(commentAt);
    expect(commentAt).toBeLessThanOrEqual(doneAt);

    // The other member sees it all.
    await bobPage.goto(`/boards/${shared._id}`);
    const b = board(bobPage);
    await expect(b.todo.getByRole('article', { name: made })).toBeVisible();
    await expect(b.done.getByRole('article', { name: title })).toContainText('Urgent priority');
    await bobPage.screenshot({ path: `${SHOTS}/other-member-sees-them.png` });
  } finally {
    await close();
  }
});

test('after going online, a conflict opens the dialog and a refused change is rolled back with a message, while the rest go through', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const shared = await apiCreateBoard(alicePage.request, `Shared ${randomSuffix()}`);
    await apiAddMember(alicePage.request, shared._id, bob.email, 'member');
    const gone = `Bob deletes this ${randomSuffix()}`;
    const contested = `Both edit this ${randomSuffix()}`;
    const goneId = await apiCreateTask(bobPage.request, { taskTitle: gone, assignee: bob.email, boardId: shared._id });
    const contestedId = await apiCreateTask(alicePage.request, { taskTitle: contested, assignee: alice.email, boardId: shared._id });

    await alicePage.goto(`/boards/${shared._id}`);
    const a = board(alicePage);
    await expect(a.card(gone)).toBeVisible();
    await expect(a.card(contested)).toBeVisible();

    await alicePage.context().setOffline(true);
    await editPriority(alicePage, gone, 'Low');
    await editPriority(alicePage, contested, 'Urgent');
    const after = `After the refusal ${randomSuffix()}`;
    await createFromBoard(alicePage, after, alice.email);

    // Meanwhile Bob deletes one task and edits the other.
    expect((await bobPage.request.delete(`/api/tasks/${goneId}`)).status()).toBe(204);
    expect((await bobPage.request.patch(`/api/tasks/${contestedId}`, { data: { assignee: bob.email, version: 1 } })).status()).toBe(200);

    await alicePage.context().setOffline(false);
    await expect(alertWith(alicePage, `Couldn’t save “${gone}”`)).toBeVisible();
    await expect(a.card(gone)).toHaveCount(0);
    const dialog = alicePage.getByRole('alertdialog', { name: 'This task changed while you were working on it' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(bob.email);
    await alicePage.screenshot({ path: `${SHOTS}/conflict-and-refusal.png` });
    // The create queued after them went through.
    await expect
      .poll(async () => (await getJson<{ tasks: ApiTask[] }>(bobPage, `/api/tasks?board=${shared._id}&status=todo`)).tasks.filter((task) => task.taskTitle === after).length)
      .toBe(1);
    // Their version holds on the server until Alice decides.
    expect((await getJson<{ task: ApiTask }>(bobPage, `/api/tasks/${contestedId}`)).task).toMatchObject({ assignee: bob.email, priority: 'normal' });
  } finally {
    await close();
  }
});

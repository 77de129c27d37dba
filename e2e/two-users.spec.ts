/** Task visibility, seen through two browsers at once. */
import { apiCreateTask, expect, newSignedInContext, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { board, cardActions } from './support/pages.ts';

test('what one user assigns to another appears on the other\'s board, and nothing else does', async ({ browser, createUser }) => {
  const alice = await createUser({ fullName: `Alice ${randomSuffix()}` });
  const bob = await createUser({ fullName: `Bob ${randomSuffix()}` });
  const carol = await createUser();
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  try {
    const alicePage = await aliceContext.newPage();
    const bobPage = await bobContext.newPage();

    const forBob = `For Bob ${randomSuffix()}`;
    const aliceOwn = `Alice keeps this ${randomSuffix()}`;
    const forCarol = `For Carol ${randomSuffix()}`;
    const bobOwn = `Bob's own ${randomSuffix()}`;
    await apiCreateTask(alicePage.request, { taskTitle: aliceOwn, assignee: alice.email });
    await apiCreateTask(alicePage.request, { taskTitle: forCarol, assignee: carol.email });
    await apiCreateTask(bobPage.request, { taskTitle: bobOwn, assignee: bob.email });

    // Alice assigns a task to Bob through the form.
    await alicePage.goto('/tasks');
    const a = board(alicePage);
    await a.createTask.click();
    await a.form.taskTitle.fill(forBob);
    await a.form.assignee.fill(bob.email);
    await a.form.submit.click();
    await expect(a.card(forBob)).toBeVisible();
    await expect(a.cards).toHaveCount(3);

    // Bob sees it, with Alice as assignor, next to his own task — and none of Alice's others.
    await bobPage.goto('/tasks');
    const b = board(bobPage);
    await expect(b.card(forBob)).toBeVisible();
    await expect(b.card(forBob)).toContainText(alice.fullName);
    await expect(b.card(bobOwn)).toBeVisible();
    await expect(b.cards).toHaveCount(2);
    await expect(b.card(aliceOwn)).toHaveCount(0);
    await expect(b.card(forCarol)).toHaveCount(0);

    // Bob completes it; Alice sees it completed after her board refetches.
    await cardActions(b.card(forBob)).complete.click();
    await expect(b.done.getByRole('article').filter({ hasText: forBob })).toBeVisible();
    await alicePage.reload();
    await expect(a.done.getByRole('article').filter({ hasText: forBob })).toBeVisible();

    // Bob cannot reach Alice's private task by id either.
    const aliceOwnId = await alicePage.request
      .get('/api/tasks')
      .then(async (res) => ((await res.json()) as { data: { tasks: { _id: string; taskTitle: string }[] } }).data.tasks.find((t) => t.taskTitle === aliceOwn)!._id);
    expect((await bobPage.request.patch(`/api/tasks/${aliceOwnId}`, { data: { status: 'done' } })).status()).toBe(404);
    expect((await bobPage.request.delete(`/api/tasks/${aliceOwnId}`)).status()).toBe(404);
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

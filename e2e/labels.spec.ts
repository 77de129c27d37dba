/** A board's labels in the browser: made in place, put on a task, filtered by, renamed and deleted, seen live by another member. */
import type { Locator, Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, newSignedInContext, test, type NewTask, type TestUser } from './fixtures.ts';
import { apiAddMember, apiCreateBoard, apiCreateLabel, type Created } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';
import { board } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;

/** A new task's fields with its labels (`labelIds`: the board's labels it starts with). */
const withLabels = (task: NewTask, labelIds: string[]) => ({ ...task, labelIds });

const live = (page: Page) => expect(page.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');
const chipsOf = (card: Locator) => card.getByRole('list', { name: 'Labels' });

test('a member makes a label in place and puts it on a task; the board filters by it; renames and deletion reach another member live', async ({ browser, createUser }) => {
  // Two browsers and six axe runs on two cores shared with other work: more than the default minute.
  test.setTimeout(120_000);
  const alice = await createUser({ fullName: `Alice ${randomSuffix()}` });
  const bob = await createUser({ fullName: `Bob ${randomSuffix()}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  try {
    const alicePage = await aliceContext.newPage();
    const bobPage = await bobContext.newPage();
    const shared = await apiCreateBoard(alicePage.request, `Launch ${randomSuffix()}`);
    await apiAddMember(alicePage.request, shared._id, bob.email, 'member');
    const taggedId = await apiCreateTask(alicePage.request, { taskTitle: 'Fix the checkout', assignee: bob.email, boardId: shared._id });
    await apiCreateTask(alicePage.request, { taskTitle: 'Write the launch post', assignee: bob.email, boardId: shared._id });

    await bobPage.goto(`/boards/${shared._id}`);
    await live(bobPage);
    const bobCard = board(bobPage).card('Fix the checkout');
    await expect(bobCard).toBeVisible();
    await expect(chipsOf(bobCard)).toHaveCount(0);

    // Alice opens the task over the board and creates "Hotfix" from the picker.
    await alicePage.goto(`/boards/${shared._id}/tasks/${taggedId}`);
    await live(alicePage);
    await alicePage.getByRole('button', { name: 'Add labels' }).click();
    const picker = alicePage.getByRole('dialog', { name: 'Labels' });
    const filter = picker.getByRole('combobox', { name: 'Filter or create labels' });
    await expect(filter).toBeFocused();
    await filter.fill('Hotfix');
    await expect(picker.getByRole('option', { name: 'Create label “Hotfix”' })).toBeVisible();
    await filter.press('Enter');
    const colors = picker.getByRole('group', { name: 'Color' });
    await colors.getByRole('radio', { name: 'Red' }).check();
    await expectAccessible(alicePage, 'the label picker choosing a colour');
    await picker.getByRole('button', { name: 'Create label' }).click();
    await expect(picker.getByRole('option', { name: 'Hotfix' })).toHaveAttribute('aria-selected', 'true');
    await expect(filter).toBeFocused();
    await expectAccessible(alicePage, 'the label picker');
    await picker.getByRole('button', { name: 'Done' }).click();
    await expect(picker).toBeHidden();
    const details = alicePage.getByText('Labels', { exact: true }).locator('xpath=following-sibling::dd');
    await expect(details.getByRole('list', { name: 'Labels' })).toHaveText('Hotfix');
    await expect(alicePage.getByRole('button', { name: 'Edit labels' })).toBeEnabled();

    // Bob: the label arrives on his card without a reload.
    await expect(chipsOf(bobCard)).toHaveText('Hotfix');

    // Alice filters her board by the label: in the address, one card left.
    await alicePage.getByRole('button', { name: 'Close task' }).click();
    await alicePage.getByRole('combobox', { name: 'Label' }).selectOption('Hotfix');
    await expect(alicePage).toHaveURL(/[?&]label=/);
    await expect(board(alicePage).cards).toHaveCount(1);
    await expect(board(alicePage).card('Fix the checkout')).toBeVisible();
    await expectAccessible(alicePage, 'a board filtered by a label');
    await alicePage.reload();
    await expect(alicePage.getByRole('combobox', { name: 'Label' })).toHaveValue(/.+/);
    await expect(board(alicePage).cards).toHaveCount(1);
    await alicePage.getByRole('combobox', { name: 'Label' }).selectOption('All labels');
    await expect(board(alicePage).cards).toHaveCount(2);
    await expect(alicePage).not.toHaveURL(/[?&]label=/);

    // Alice renames and recolours it in the board's settings: Bob's card follows live.
    await alicePage.goto(`/boards/${shared._id}/settings`);
    const section = alicePage.getByRole('region', { name: /^Labels/ });
    await section.getByRole('button', { name: 'Edit label Hotfix' }).click();
    const form = section.getByRole('form', { name: 'Edit label Hotfix' });
    await form.getByLabel('Name').fill('Urgent fix');
    await form.getByRole('radio', { name: 'Teal' }).check();
    await expectAccessible(alicePage, 'a label being edited in board settings');
    await form.getByRole('button', { name: 'Save label' }).click();
    await expect(section.getByText('Urgent fix', { exact: true })).toBeVisible();
    await expectAccessible(alicePage, 'labels in board settings');
    await expect(chipsOf(bobCard)).toHaveText('Urgent fix');
    await expect(chipsOf(bobCard).getByText('Urgent fix')).toHaveClass(/label-chip--teal/);

    // Deleting asks first, then the label leaves every card.
    await section.getByRole('button', { name: 'Delete label Urgent fix' }).click();
    const confirm = alicePage.getByRole('alertdialog', { name: 'Delete this label?' });
    await expect(confirm).toContainText('comes off every task');
    await confirm.getByRole('button', { name: 'Delete label' }).click();
    await expect(confirm).toBeHidden();
    await expect(section.getByText('No labels yet.', { exact: false })).toBeVisible();
    await expect(chipsOf(bobCard)).toHaveCount(0);
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

test('a viewer sees the chips and reads the labels, with no picker and no label changes', async ({ browser, createUser }) => {
  const alice = await createUser({ fullName: `Alice ${randomSuffix()}` });
  const carol = await createUser({ fullName: `Carol ${randomSuffix()}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const carolContext = await newSignedInContext(browser, carol);
  try {
    const api = (await aliceContext.newPage()).request;
    const shared = await apiCreateBoard(api, `Watched ${randomSuffix()}`);
    await apiAddMember(api, shared._id, carol.email, 'viewer');
    const bug = await apiCreateLabel(api, shared._id, 'Bug', 'red');
    const id = await apiCreateTask(api, withLabels({ taskTitle: 'Broken link', assignee: alice.email, boardId: shared._id }, [bug._id]));

    const page = await carolContext.newPage();
    await page.goto(`/boards/${shared._id}/tasks/${id}`);
    const details = page.getByText('Labels', { exact: true }).locator('xpath=following-sibling::dd');
    await expect(details.getByRole('list', { name: 'Labels' })).toHaveText('Bug');
    await expect(page.getByRole('button', { name: /labels$/ })).toHaveCount(0);
    await page.goto(`/boards/${shared._id}/settings`);
    const section = page.getByRole('region', { name: /^Labels/ });
    await expect(section.getByText('Bug', { exact: true })).toBeVisible();
    await expect(section.getByRole('button')).toHaveCount(0);
    await expectAccessible(page, 'labels in settings, read by a viewer');
  } finally {
    await aliceContext.close();
    await carolContext.close();
  }
});

/**
 * Cards with labels, the picker and the filter in both themes, on a phone and a desktop, each
 * checked with axe; with WEB_SHOTS_DIR set, also saved as screenshots for a person to look at.
 */
const shoot = async (page: Page, name: string, fullPage = false) => {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/labels-${name}.png`, fullPage });
};

const PHONE = { width: 360, height: 740 };

test.describe('labels in both themes, phone and desktop', () => {
  test.use({ signedIn: true });
  // Four axe runs and a dozen screenshots each, on two cores shared with other work.
  test.describe.configure({ timeout: 120_000 });
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      test(`${colorScheme} ${size}`, async ({ page, createUser }) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(viewport);
        const other: TestUser = await createUser({ fullName: 'Grace Hopper' });
        const shared = await apiCreateBoard(page.request, 'Website launch');
        await apiAddMember(page.request, shared._id, other.email, 'member');
        const colors = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'];
        const labels: Created[] = [];
        for (const [i, name] of ['Design', 'Bug', 'Marketing', 'Waiting on legal', 'Copy', 'Infra', 'Pricing', 'Photos', 'Launch week', 'Research'].entries()) {
          labels.push(await apiCreateLabel(page.request, shared._id, name, colors[i] ?? 'gray'));
        }
        const ids = (names: string[]) => labels.filter((l) => names.includes(l.name)).map((l) => l._id);
        const create = (taskTitle: string, labelNames: string[]) =>
          apiCreateTask(page.request, withLabels({ taskTitle, assignee: other.email, boardId: shared._id }, ids(labelNames)));
        await create('Book the photographer', ['Photos']);
        await create('Check the pricing page', ['Pricing', 'Copy', 'Waiting on legal', 'Research', 'Marketing']);
        const first = await create('Write the launch post', ['Marketing', 'Copy', 'Launch week']);
        await create('Fix the signup bug', ['Bug', 'Infra', 'Design']);

        await page.goto(`/boards/${shared._id}`);
        const card = board(page).card('Write the launch post');
        await expect(chipsOf(card)).toHaveText(/Copy/);
        await shoot(page, `board-${size}-${colorScheme}`);
        await expectAccessible(page, `cards with labels ${colorScheme} ${size}`);
        if (size === 'phone') {
          // Cards with labels still fit two to a phone's first screen of "All my tasks".
          await page.goto('/tasks');
          await expect(chipsOf(board(page).card('Write the launch post'))).toBeVisible();
          const second = board(page).todo.getByRole('article').nth(1);
          await expect(chipsOf(second)).toBeVisible();
          const box = await second.boundingBox();
          expect((box?.y ?? Infinity) + (box?.height ?? 0), 'bottom of the second card').toBeLessThanOrEqual(PHONE.height);
          await shoot(page, `all-tasks-${size}-${colorScheme}`);
          await page.goto(`/boards/${shared._id}`);
          await expect(chipsOf(card)).toBeVisible();
        }

        // The filter: a select on a desktop; behind "Filters" on a phone, then a chip that clears it.
        if (size === 'phone') {
          await page.getByRole('button', { name: 'Filters' }).click();
          await page.getByRole('combobox', { name: 'Label' }).selectOption('Copy');
          await shoot(page, `filter-open-${size}-${colorScheme}`);
          await page.getByRole('button', { name: 'Done' }).click();
          await expect(board(page).cards).toHaveCount(2);
          const chip = page.getByRole('button', { name: 'Label filter: Copy. Clear it' });
          await expect(chip).toBeVisible();
          await expect(page.getByRole('button', { name: 'Filters, 1 active' })).toBeVisible();
        } else {
          await page.getByRole('combobox', { name: 'Label' }).selectOption('Copy');
          await expect(board(page).cards).toHaveCount(2);
        }
        await shoot(page, `filter-${size}-${colorScheme}`);
        await expectAccessible(page, `label filter ${colorScheme} ${size}`);

        // The picker on the task page, open, with a filter typed that offers "Create".
        await page.goto(`/boards/${shared._id}/tasks/${first}`);
        await page.getByRole('button', { name: 'Edit labels' }).click();
        const picker = page.getByRole('dialog', { name: 'Labels' });
        await expect(picker.getByRole('option', { name: 'Copy' })).toHaveAttribute('aria-selected', 'true');
        await shoot(page, `picker-${size}-${colorScheme}`);
        await expectAccessible(page, `label picker ${colorScheme} ${size}`);
        await picker.getByRole('combobox').fill('Press');
        await picker.getByRole('combobox').press('Enter');
        await expect(picker.getByRole('group', { name: 'Color' })).toBeVisible();
        await shoot(page, `picker-create-${size}-${colorScheme}`);
        await expectAccessible(page, `label picker, new label ${colorScheme} ${size}`);
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        await expect(picker).toBeHidden();

        // The new-task form's labels, the picker open in it.
        await page.goto(`/boards/${shared._id}`);
        await board(page).createTask.click();
        const labelsField = board(page).dialog.getByRole('group', { name: /^Labels/ });
        await labelsField.getByRole('button', { name: 'Add labels' }).click();
        await labelsField.getByRole('option', { name: 'Bug' }).click();
        await labelsField.getByRole('button', { name: 'Done' }).click();
        await expect(labelsField.getByRole('list', { name: 'Labels' })).toHaveText('Bug');
        await shoot(page, `new-task-${size}-${colorScheme}`);
        await expectAccessible(page, `new-task form with labels ${colorScheme} ${size}`);

        await page.goto(`/boards/${shared._id}/settings`);
        await expect(page.getByRole('region', { name: /^Labels/ })).toBeVisible();
        await page.getByRole('region', { name: /^Labels/ }).scrollIntoViewIfNeeded();
        await shoot(page, `settings-${size}-${colorScheme}`);
        await expectAccessible(page, `labels in settings ${colorScheme} ${size}`);
      });
    }
  }
});

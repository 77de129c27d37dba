/**
 * Notifications in the app: two people in two browsers. Alice assigns Bob a task and mentions
 * him in a comment; Bob's bell counts up live, without a reload; opening a notification opens
 * the task and marks it read; "Mark all as read" clears the rest. The settings table saves each
 * switch and keeps it after a reload. The open panel and the account section are checked with
 * axe in both themes, on a phone and a desktop; with WEB_SHOTS_DIR set, also saved.
 */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, newSignedInContext, test, twoPeople } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { expectNoSidewaysScroll, THEMES_AND_SIZES } from './support/layout.ts';
import { taskPage } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const bellOf = (page: Page) => {
  const button = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Notifications/ });
  const panel = page.getByRole('region', { name: 'Notifications' });
  return {
    button,
    panel,
    /** The bell's accessible name says the count. */
    expectCount: (n: number) => expect(button).toHaveAccessibleName(n === 0 ? 'Notifications' : `Notifications, ${n} unread`),
    items: panel.getByRole('listitem'),
    markAll: panel.getByRole('button', { name: 'Mark all as read' }),
  };
};

const streamOpen = (page: Page) => expect(page.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');

async function comment(page: Page, taskId: string, body: string) {
  const res = await page.request.post(`/api/tasks/${taskId}/comments`, { data: { body } });
  expect(res.status(), await res.text()).toBe(201);
}

test('Bob’s bell counts Alice’s assignment and mention live; a click opens the task and marks it read; "Mark all as read"', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    // The first count is known before anything happens (a count's first value is not announced).
    const firstCount = bobPage.waitForResponse((res) => res.url().includes('/api/notifications?') && res.ok());
    await bobPage.goto('/tasks');
    await firstCount;
    const bell = bellOf(bobPage);
    await bell.expectCount(0);
    await streamOpen(bobPage);

    // Alice assigns Bob a task: his bell counts it without a reload.
    const title = `Fix the gate ${randomSuffix()}`;
    const id = await apiCreateTask(alicePage.request, { taskTitle: title, assignee: bob.email });
    await bell.expectCount(1);
    await expect(bobPage.getByTestId('bell-badge')).toHaveText('1');
    // The change is said politely.
    await expect(bobPage.getByTestId('bell-announcement')).toHaveText('New notification. 1 unread notification.');

    // …and mentions him in a comment: two.
    await comment(alicePage, id, `@${bob.email} could you check the hinges?`);
    await bell.expectCount(2);

    // The panel: newest first, both unread, focus inside.
    await bell.button.click();
    await expect(bell.panel).toBeVisible();
    await expect(bell.items).toHaveCount(2);
    await expect(bell.items.nth(0)).toContainText(alice.fullName);
    await expect(bell.items.nth(0)).toContainText(title);
    await expect(bell.items.nth(0).getByRole('link')).toHaveAccessibleName(/^Unread:/);
    await expect(bell.markAll).toBeFocused();
    await expectAccessible(bobPage, 'the open notifications panel');

    // Esc closes it, focus back on the bell.
    await bobPage.keyboard.press('Escape');
    await expect(bell.panel).toBeHidden();
    await expect(bell.button).toBeFocused();

    // The assignment opens the task and is read: one left.
    await bell.button.click();
    await bell.items.nth(1).getByRole('link').click();
    await expect(bobPage).toHaveURL(new RegExp(`/tasks/${id}$`));
    // On a wide screen the task is a modal panel over the board (the bar behind it is inert).
    const task = taskPage(bobPage);
    await expect(task.panel).toBeVisible();
    await expect(task.panel.getByRole('heading', { name: title })).toBeVisible();
    await bell.expectCount(1);
    await task.close.click();
    await expect(task.panel).toBeHidden();

    // Read in another tab of Bob's too: the count follows there live.
    const bobsOtherTab = await bobPage.context().newPage();
    await bobsOtherTab.goto('/tasks');
    await bellOf(bobsOtherTab).expectCount(1);
    await streamOpen(bobsOtherTab);

    // Back in the first tab (a background tab draws no frames, and a click waits for one).
    await bobPage.bringToFront();
    await bell.button.click();
    await bell.markAll.click();
    await bell.expectCount(0);
    await expect(bell.items.nth(0).getByRole('link')).not.toHaveAccessibleName(/^Unread:/);
    await expect(bell.markAll).toBeDisabled();
    await bellOf(bobsOtherTab).expectCount(0);

    // And it stays read after a reload.
    await bobPage.reload();
    await bell.expectCount(0);
    expect(alice.email).not.toBe(bob.email);
  } finally {
    await close();
  }
});

test('the settings table saves each switch and keeps it after a reload', async ({ browser, createUser }) => {
  const user = await createUser();
  const context = await newSignedInContext(browser, user);
  try {
    const page = await context.newPage();
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Notifications', exact: true });
    const push = section.getByRole('switch', { name: 'Comments on my tasks: Push' });
    const app = section.getByRole('switch', { name: 'Overdue: In the app' });
    const mail = section.getByRole('switch', { name: 'Due soon: Mail' });
    await expect(push).toBeChecked();
    await expect(section.getByRole('row', { name: /Comments on my tasks/ })).toContainText('never sent by mail');
    await expectAccessible(page, 'the account page’s notification settings');

    await push.click();
    await expect(section.getByRole('status')).toHaveText('Saved: Comments on my tasks: Push off.');
    await app.click();
    await expect(section.getByRole('status')).toHaveText('Saved: Overdue: In the app off.');
    await mail.click();
    await expect(section.getByRole('status')).toHaveText('Saved: Due soon and Overdue: Mail off.');
    await expect(section.getByRole('switch', { name: 'Overdue: Mail' })).not.toBeChecked();

    await page.reload();
    await expect(push).not.toBeChecked();
    await expect(app).not.toBeChecked();
    await expect(mail).not.toBeChecked();
    await expect(section.getByRole('switch', { name: 'Overdue: Mail' })).not.toBeChecked();
    await expect(section.getByRole('switch', { name: 'Comments on my tasks: In the app' })).toBeChecked();

    // This device: Chromium in a test has push but no service worker of ours to wait for here;
    // the switch and its state are shown either way.
    await expect(page.getByRole('switch', { name: 'Notifications on this device' })).toBeVisible();
  } finally {
    await context.close();
  }
});

test.describe('the panel and the settings in both themes', () => {
  for (const { colorScheme, label, size } of THEMES_AND_SIZES) {
    test(`${colorScheme} ${label}`, async ({ browser, createUser }) => {
      const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
      try {
        for (const title of ['Water the plants', 'Order more paint', 'Call the plumber about the leak under the sink']) {
          await apiCreateTask(alicePage.request, { taskTitle: title, assignee: bob.email });
        }
        await bobPage.emulateMedia({ colorScheme });
        await bobPage.setViewportSize(size);
        await bobPage.goto('/tasks');
        const bell = bellOf(bobPage);
        await bell.expectCount(3);
        await bell.button.click();
        await expect(bell.items).toHaveCount(3);
        // One read, to show both kinds.
        await bobPage.request.post('/api/notifications/read', { data: { all: true } });
        await apiCreateTask(alicePage.request, { taskTitle: 'One more for the list', assignee: bob.email });
        await expect(bell.items).toHaveCount(4);
        await expect(bell.items.nth(0)).toContainText(alice.fullName);
        await shoot(bobPage, `notifications-panel-${label}-${colorScheme}`);
        await expectAccessible(bobPage, `the notifications panel ${colorScheme} ${label}`);
        await expectNoSidewaysScroll(bobPage);

        await bobPage.keyboard.press('Escape');
        await bobPage.goto('/account');
        const section = bobPage.getByRole('region', { name: 'Notifications', exact: true });
        await expect(section.getByRole('switch').first()).toBeVisible();
        await section.scrollIntoViewIfNeeded();
        await shoot(bobPage, `notifications-settings-${label}-${colorScheme}`);
        await expectAccessible(bobPage, `the notification settings ${colorScheme} ${label}`);
        await expectNoSidewaysScroll(bobPage);
      } finally {
        await close();
      }
    });
  }
});

/**
 * Mentions: typing @ in a comment offers the people who can see the task (keyboard only here),
 * the posted mention shows as the person's name, in the other person's open task live too, and
 * they get a mail. Screenshots of the open list in both themes, on a phone and a desktop, each
 * checked with axe; with WEB_SHOTS_DIR set, also saved.
 */
import type { Browser, Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, mailsTo, newSignedInContext, test, type TestUser } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';
import { board, taskPage } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Polls the caught mails until one to `email` has `subject`. */
async function mentionMail(email: string, subject: string) {
  await expect.poll(() => mailsTo(email).filter((m) => m.subject === subject).length, { timeout: 15_000 }).toBe(1);
  const mail = mailsTo(email).find((m) => m.subject === subject);
  if (mail === undefined) throw new Error('unreachable');
  return mail;
}

/** Alice and Bob, each signed in in a browser of their own, and a task of Alice's assigned to Bob. */
async function scene(browser: Browser, createUser: (o?: Partial<TestUser>) => Promise<TestUser>) {
  const suffix = randomSuffix();
  const alice = await createUser({ fullName: `Alice Author ${suffix}` });
  const bob = await createUser({ fullName: `Bob Builder ${suffix}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  const alicePage = await aliceContext.newPage();
  const bobPage = await bobContext.newPage();
  const title = `Fix the gate ${suffix}`;
  const id = await apiCreateTask(alicePage.request, { taskTitle: title, assignee: bob.email });
  return {
    alice,
    bob,
    alicePage,
    bobPage,
    title,
    id,
    close: async () => {
      await aliceContext.close();
      await bobContext.close();
    },
  };
}

test('one person mentions another by keyboard; the name shows for both, live, and a mail arrives', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, title, id, close } = await scene(browser, createUser);
  try {
    // Bob has the task open; its comments follow live.
    await bobPage.goto(`/tasks/${id}`);
    await expect(taskPage(bobPage).heading(title)).toBeVisible();
    await expect(bobPage.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');

    // Alice opens it as a panel over her board.
    await alicePage.goto('/tasks');
    await board(alicePage).card(title).getByRole('link', { name: title }).click();
    const t = taskPage(alicePage);
    await expect(t.panel).toBeVisible();
    const box = t.comments.getByRole('combobox', { name: 'Add a comment' });
    await box.click();
    await box.pressSequentially('Could you @bo');
    const list = alicePage.getByRole('listbox', { name: 'People to mention' });
    await expect(list).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(list.getByRole('option')).toHaveText([`${bob.fullName}${bob.email}`]);
    await expect(list.getByRole('option', { selected: true })).toContainText(bob.fullName);
    await expectAccessible(alicePage, 'the mention list');

    // Esc closes the list and leaves the panel open; typing on opens it again.
    await alicePage.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(t.panel).toBeVisible();
    await box.pressSequentially('b');
    await expect(list).toBeVisible();
    // Both people can be mentioned: the author is offered too.
    await alicePage.keyboard.press('Backspace');
    await alicePage.keyboard.press('Backspace');
    await alicePage.keyboard.press('Backspace');
    await expect(list.getByRole('option')).toHaveCount(2);
    await box.pressSequentially('bui');
    await alicePage.keyboard.press('ArrowDown');
    await alicePage.keyboard.press('Enter');
    await expect(box).toHaveValue(`Could you @${bob.email} `);
    await box.pressSequentially('check the hinges?');
    await t.postComment.click();

    // Alice's comment shows Bob's name as the mention, with his address as its title…
    const mention = t.comment(alice.fullName).getByTitle(bob.email);
    await expect(mention).toHaveText(`@${bob.fullName} (${bob.email})`);
    await expect(mention).toHaveClass('mention');
    // …and so does Bob's page, without a reload.
    const bobsView = taskPage(bobPage).comment(alice.fullName);
    await expect(bobsView.getByTitle(bob.email)).toHaveText(`@${bob.fullName} (${bob.email})`);
    await expectAccessible(bobPage, 'a comment with a mention');
    await bobsView.scrollIntoViewIfNeeded();
    await shoot(bobPage, 'mention-shown-desktop-light');

    // Bob gets one mail, with the comment and a link to the task.
    const mail = await mentionMail(bob.email, `${alice.fullName} mentioned you on ${title}`);
    expect(mail.text).toContain(`> Could you @${bob.email} check the hinges?`);
    expect(mail.text).toContain(`/tasks/${id}`);
    expect(mail.header('List-Unsubscribe')).toContain('/api/unsubscribe?token=');
    expect(mailsTo(alice.email).filter((m) => m.subject.includes('mentioned you'))).toHaveLength(0);
  } finally {
    await close();
  }
});

test('"Mentions: Mail" on the account page turns mention mails off', async ({ browser, createUser }) => {
  const user = await createUser();
  const context = await newSignedInContext(browser, user);
  try {
    const page = await context.newPage();
    await page.goto('/account');
    const box = page.getByRole('switch', { name: 'Mentions: Mail' });
    await expect(box).toBeChecked();
    await box.uncheck();
    await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'Saved: Mentions: Mail off.' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Mentions: Mail' })).not.toBeChecked();
  } finally {
    await context.close();
  }
});

test.describe('the mention list in both themes', () => {
  const sizes = [
    { label: 'phone', size: { width: 360, height: 740 } },
    { label: 'desktop', size: { width: 1280, height: 800 } },
  ] as const;
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const { label, size } of sizes) {
      test(`${colorScheme} ${label}`, async ({ browser, createUser }) => {
        const { bob, alicePage, id, close } = await scene(browser, createUser);
        try {
          await alicePage.emulateMedia({ colorScheme });
          await alicePage.setViewportSize(size);
          await alicePage.goto(`/tasks/${id}`);
          const box = taskPage(alicePage).comments.getByRole('combobox', { name: 'Add a comment' });
          await box.click();
          await box.pressSequentially('Thanks @');
          const list = alicePage.getByRole('listbox', { name: 'People to mention' });
          await expect(list.getByRole('option')).toHaveCount(2);
          await alicePage.keyboard.press('ArrowDown');
          await expect(list.getByRole('option', { selected: true })).toContainText(bob.email);
          // Every section loaded, then the page at its end: what stands under the sticky header
          // must not depend on which section had loaded when the selected option was scrolled
          // into view, since axe counts a button half under the header's buttons as too small.
          await expect(taskPage(alicePage).activity).toContainText('created');
          await alicePage.evaluate(() => {
            const { document, scrollTo } = globalThis as unknown as { document: { documentElement: { scrollHeight: number } }; scrollTo: (x: number, y: number) => void };
            scrollTo(0, document.documentElement.scrollHeight);
          });
          await expect(list).toBeInViewport({ ratio: 1 });
          await shoot(alicePage, `mentions-${label}-${colorScheme}`);
          await expectAccessible(alicePage, `the mention list ${colorScheme} ${label}`);
          await expectNoSidewaysScroll(alicePage);
        } finally {
          await close();
        }
      });
    }
  }
});

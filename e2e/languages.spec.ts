/**
 * Every screen in German, Japanese and Arabic (right to left), on a phone's 360 px: signed out in
 * the browser's language, signed in in the account's — the pages, the notifications panel, the
 * keyboard shortcuts, a confirmation dialog and the admin page. A word of the app's English that the
 * language's catalogs never use is untranslated text; a text wider than its box is cut off (long
 * German words, the other direction). The test's own data is written in the language.
 */
import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePo } from 'pofile-ts';
import { apiCreateTask, expect, test } from './fixtures.ts';
import { apiCreateBoard, apiCreateLabel } from './support/boards-api.ts';
import { repoRoot } from './support/paths.ts';
import { promoteUser, randomSuffix } from './support/db.ts';
import { findProblems } from './support/text-problems.ts';
import { LANGUAGES as ALL_LANGUAGES } from '#shared/languages.ts';

const CATALOGS = ['web/src/locales/public', 'web/src/locales/app', 'server/locales'];
/** Words that are the same in every language (names, machine words, key names). */
const ALLOWED = ['Taskwise', 'Trello', 'CSV', 'JSON', 'iCal', 'API', 'URL', 'HTTP', 'HTTPS', 'OpenID', 'Connect', 'WebAuthn', 'Esc', 'Enter', 'Alt', 'Shift', 'Ctrl', 'Tab', 'TOTP', 'SSO', 'Test', 'WIP'];
/** ICU MessageFormat's own words, never shown. */
const SYNTAX = new Set(['plural', 'select', 'selectordinal', 'one', 'two', 'few', 'many', 'other', 'zero', 'number', 'date', 'time']);

const wordsOf = (text: string) => (text.match(/[A-Za-z]{3,}/g) ?? []).map((word) => word.toLowerCase());

/** The words of the app's English that `language`'s catalogs never use: seen on a page, they are English left over. */
function englishOnlyWords(language: string): string[] {
  const english = new Set<string>();
  const translated = new Set<string>();
  for (const directory of CATALOGS) {
    for (const item of parsePo(readFileSync(join(repoRoot, directory, `${language}.po`), 'utf8')).items) {
      for (const word of wordsOf(item.msgid)) if (!SYNTAX.has(word)) english.add(word);
      for (const word of wordsOf(item.msgstr.join(' '))) translated.add(word);
    }
  }
  return [...english].filter((word) => !translated.has(word));
}

/** What `language`'s catalogs say for the English `msgid`: how the test finds a control by its name. */
function say(language: string, msgid: string): string {
  for (const directory of CATALOGS) {
    const item = parsePo(readFileSync(join(repoRoot, directory, `${language}.po`), 'utf8')).items.find((entry) => entry.msgid === msgid && !entry.msgctxt);
    const text = item?.msgstr[0];
    if (text !== undefined && text !== '') return text;
  }
  throw new Error(`No ${language} text for "${msgid}".`);
}

const LANGUAGES = [
  { language: 'de', board: 'Projekt Orion', label: 'Dringend', task: 'Bericht schreiben' },
  { language: 'ja', board: 'オリオン計画', label: '至急', task: '報告書を書く' },
  { language: 'ar', board: 'مشروع أوريون', label: 'عاجل', task: 'كتابة التقرير' },
] as const;

for (const { language, board, label, task } of LANGUAGES) {
  test.describe(`in ${language}`, () => {
    test.use({ locale: language, viewport: { width: 360, height: 740 } });
    const suspect = englishOnlyWords(language);

    async function expectTranslated(page: Page, screen: string, allowed: readonly string[]) {
      // Fonts and late chunks: the page is settled when the network is.
      await page.waitForLoadState('networkidle');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      const { english, cutOff } = await findProblems(page, { allowed, suspect });
      expect(english, `untranslated text on ${screen}`).toEqual([]);
      expect(cutOff, `text cut off at 360 px on ${screen}`).toEqual([]);
    }

    test('signed out: the sign-in and sign-up pages follow the browser', async ({ page }) => {
      await page.goto('/login');
      // The check itself finds the app's English on the page.
      await page.evaluate('document.body.insertAdjacentHTML("beforeend", "<p id=probe>Forgot password?</p>")');
      expect((await findProblems(page, { allowed: ALLOWED, suspect })).english).toContain('Forgot password?');
      await page.evaluate('document.getElementById("probe").remove()');
      await expectTranslated(page, '/login', ALLOWED);
      await page.goto('/sign-up');
      await expectTranslated(page, '/sign-up', ALLOWED);
      await page.goto('/reset-password');
      await expectTranslated(page, '/reset-password', ALLOWED);
      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectTranslated(page, 'the page of an unknown address', ALLOWED);
    });

    test.describe('signed in', () => {
      test.use({ signedIn: true });

      test('the board and its views, a task, the board settings and the account follow the account', async ({ page, user }) => {
        const allowed = [...ALLOWED, ...user.fullName.split(/\s+/)];
        const saved = await page.request.patch('/api/users/me/settings', { data: { language } });
        expect(saved.status(), await saved.text()).toBe(200);
        const created = await apiCreateBoard(page.request, board);
        await apiCreateLabel(page.request, created._id, label, 'red');
        const taskId = await apiCreateTask(page.request, { taskTitle: task, assignee: user.email, boardId: created._id, priority: 'high', deadline: new Date(Date.now() + 3 * 86_400_000).toISOString() });

        await page.goto('/tasks');
        await expectTranslated(page, 'all my tasks', allowed);
        await page.goto(`/boards/${created._id}`);
        await expect(page.getByText(task).first()).toBeVisible();
        await expectTranslated(page, 'the board', allowed);
        for (const view of ['table', 'calendar', 'timeline']) {
          await page.goto(`/boards/${created._id}?view=${view}`);
          await expectTranslated(page, `the ${view} view`, allowed);
        }
        await page.goto(`/boards/${created._id}/tasks/${taskId}`);
        await expect(page.getByRole('heading', { name: task })).toBeVisible();
        await expectTranslated(page, 'the task page', allowed);
        await page.goto(`/boards/${created._id}/settings`);
        await expectTranslated(page, 'the board settings', allowed);
        await page.goto('/account');
        await expectTranslated(page, 'the account page', allowed);
      });

      test('the notifications panel, the keyboard shortcuts, a confirmation and the admin page follow the account', async ({ page, user, db, createUser }) => {
        const allowed = [...ALLOWED, ...user.fullName.split(/\s+/)];
        promoteUser(db, user.email);
        // Another account whose name is English words: the admin page lists it, as a person's own words.
        await createUser({ fullName: `Renamed Person ${randomSuffix()}` });
        const saved = await page.request.patch('/api/users/me/settings', { data: { language } });
        expect(saved.status(), await saved.text()).toBe(200);
        const created = await apiCreateBoard(page.request, board);
        await apiCreateTask(page.request, { taskTitle: task, assignee: user.email, boardId: created._id });

        await page.goto(`/boards/${created._id}`);
        const card = page.getByRole('article').filter({ hasText: task });
        await expect(card).toBeVisible();
        await page.getByRole('navigation', { name: say(language, 'Main') }).getByRole('button', { name: new RegExp(`^${say(language, 'Notifications')}`) }).click();
        await expect(page.getByRole('region', { name: say(language, 'Notifications') })).toBeVisible();
        await expectTranslated(page, 'the notifications panel', allowed);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('region', { name: say(language, 'Notifications') })).toBeHidden();

        await page.keyboard.press('Shift+?');
        await expect(page.getByRole('dialog', { name: say(language, 'Keyboard shortcuts') })).toBeVisible();
        await expectTranslated(page, 'the keyboard shortcuts', allowed);
        await page.keyboard.press('Escape');

        await card.getByRole('button', { name: new RegExp(`^${say(language, 'Delete')}`) }).click();
        await expect(page.getByRole('alertdialog', { name: say(language, 'Delete task?') })).toBeVisible();
        await expectTranslated(page, 'the confirmation of a deletion', allowed);
        await page.keyboard.press('Escape');

        await page.goto('/admin');
        await expect(page.getByRole('heading', { level: 1, name: say(language, 'Admin') })).toBeVisible();
        await expectTranslated(page, 'the admin page', allowed);
      });
    });
  });
}

// The other languages: the pages a person sees before an account (the browser's language).
for (const language of ALL_LANGUAGES.filter((tag) => !LANGUAGES.some((detailed) => detailed.language === tag))) {
  test.describe(`in ${language}`, () => {
    test.use({ locale: language, viewport: { width: 360, height: 740 } });

    test('signed out: sign-in, sign-up and password reset are translated and fit a phone', async ({ page }) => {
      const suspect = englishOnlyWords(language);
      for (const path of ['/login', '/sign-up', '/reset-password']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        const { english, cutOff } = await findProblems(page, { allowed: ALLOWED, suspect });
        expect(english, `untranslated text on ${path}`).toEqual([]);
        expect(cutOff, `text cut off at 360 px on ${path}`).toEqual([]);
      }
    });
  });
}

test.describe('in Arabic, text a person wrote in English', () => {
  test.use({ locale: 'ar', viewport: { width: 1280, height: 860 }, signedIn: true });

  /**
   * How an element is laid out: its own direction, its alignment, and whether its first letter
   * is inside its box (a title cut short shows its start). Installed in the page as a script, as
   * the test's own code has no DOM types.
   */
  const LAYOUT_PROBE = `globalThis.__layoutOf = (el) => {
    const style = getComputedStyle(el);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, { acceptNode: (node) => (/\\S/.test(node.textContent) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP) });
    const text = walker.nextNode();
    if (text === null) throw new Error('no text in ' + el.outerHTML.slice(0, 80));
    const at = text.textContent.search(/\\S/);
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    const letter = range.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return { direction: style.direction, textAlign: style.textAlign, startShown: letter.left >= box.left - 1 && letter.right <= box.right + 1 };
  };`;
  interface Layout {
    direction: string;
    textAlign: string;
    startShown: boolean;
  }
  // Read with expect.poll: a view may draw an element again just after it shows (the calendar's
  // weeks once the account's week start is known), and a read of the element it replaced finds
  // no style at all (direction "").
  const layoutOf = (target: Locator) => target.evaluate((el) => (globalThis as unknown as { __layoutOf: (el: unknown) => Layout }).__layoutOf(el));

  test('reads left to right, keeps its punctuation, is cut at its end and stays aligned with the page', async ({ page, user }) => {
    await page.addInitScript(LAYOUT_PROBE);
    const saved = await page.request.patch('/api/users/me/settings', { data: { language: 'ar' } });
    expect(saved.status(), await saved.text()).toBe(200);
    const title = 'Fix the login bug on the sign-in page of every browser we support (#42)!';
    const arabic = 'كتابة التقرير';
    const created = await apiCreateBoard(page.request, 'Launch plan');
    const day = 86_400_000;
    await apiCreateTask(page.request, { taskTitle: title, workTitle: 'Website', assignee: user.email, boardId: created._id, startAt: new Date(Date.now() + day).toISOString(), deadline: new Date(Date.now() + 3 * day).toISOString() });
    await apiCreateTask(page.request, { taskTitle: arabic, assignee: user.email, boardId: created._id, deadline: new Date(Date.now() + 2 * day).toISOString() });

    await page.goto(`/boards/${created._id}`);
    const card = page.getByRole('article', { name: title });
    const heading = page.getByRole('heading', { level: 1, name: 'Launch plan' });
    await expect(heading).toBeVisible();
    await expect.poll(() => layoutOf(heading)).toMatchObject({ direction: 'ltr', textAlign: 'right' });
    await expect.poll(() => layoutOf(card.getByRole('link', { name: title }))).toMatchObject({ direction: 'ltr' });
    await expect.poll(() => layoutOf(card.getByText('Website'))).toMatchObject({ direction: 'ltr', textAlign: 'right', startShown: true });
    await expect.poll(() => layoutOf(card.getByText(user.email))).toMatchObject({ direction: 'ltr', textAlign: 'right', startShown: true });
    // A title in the page's own language keeps the page's direction.
    await expect.poll(() => layoutOf(page.getByRole('article', { name: arabic }).getByRole('link', { name: arabic }))).toMatchObject({ direction: 'rtl' });
    await expect.poll(() => layoutOf(page.getByRole('navigation').getByText('Launch plan', { exact: true }).first())).toMatchObject({ direction: 'ltr', textAlign: 'right', startShown: true });
    // Inside an Arabic sentence the title is a run of its own: its "!" stays at its end.
    await card.getByRole('button', { name: new RegExp(`^${say('ar', 'Delete')}`) }).click();
    const confirmation = page.getByRole('alertdialog', { name: say('ar', 'Delete task?') });
    await expect.poll(() => layoutOf(confirmation.getByText(title, { exact: true }))).toMatchObject({ direction: 'ltr' });
    await page.keyboard.press('Escape');
    await expect(confirmation).toBeHidden();

    await page.goto(`/boards/${created._id}?view=table`);
    const row = page.getByRole('row').filter({ hasText: title });
    await expect.poll(() => layoutOf(row.getByRole('link', { name: title }))).toMatchObject({ direction: 'ltr', textAlign: 'right', startShown: true });
    await expect.poll(() => layoutOf(row.getByText(user.email, { exact: true }))).toMatchObject({ direction: 'ltr', textAlign: 'right', startShown: true });

    await page.goto(`/boards/${created._id}?view=calendar`);
    const chip = page.getByText(title, { exact: true }).first();
    await expect(chip).toBeVisible();
    await expect.poll(() => layoutOf(chip)).toMatchObject({ direction: 'ltr', textAlign: 'right', startShown: true });

    await page.goto(`/boards/${created._id}?view=timeline`);
    const label = page.getByText(title, { exact: true }).first();
    await expect(label).toBeVisible();
    await expect.poll(() => layoutOf(label)).toMatchObject({ direction: 'ltr', textAlign: 'right', startShown: true });
  });
});

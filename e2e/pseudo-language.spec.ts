/**
 * Every screen in the pseudo-language (en-XA: English accented and 40 % longer), on a phone's
 * 360 px: a text that reads as plain English did not go through a catalog, and a text wider than
 * its box is cut off. The data the test makes is itself accented, so only the product's own words
 * can be plain English — and the person's address, the product's name and Intl's English month
 * and day names and relative times (the pseudo-language formats dates as English).
 */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, test } from './fixtures.ts';
import { apiCreateBoard, apiCreateLabel } from './support/boards-api.ts';

test.use({ locale: 'en-XA', viewport: { width: 360, height: 740 } });

/** Words a pseudo-language page may show in plain ASCII. */
// "Test ID" is the test's single sign-on provider, named by its operator.
const ALLOWED = new Set(['Test', 'Taskwise', 'Trello', 'CSV', 'JSON', 'iCal', 'API', 'URL', 'HTTP', 'HTTPS', 'OpenID', 'Connect', 'WebAuthn', 'GitHub', 'Google', 'Esc', 'Enter', 'Alt', 'Shift', 'Ctrl', 'Tab', 'PNG', 'JPEG', 'PDF', 'SVG', 'GIF', 'WebP', 'TOTP', 'SSO', 'AM', 'PM']);
const MONTHS_AND_DAYS = /^(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun|seconds?|minutes?|hours?|days?|weeks?|months?|years?|ago|now|yesterday|tomorrow|today)$/;

/**
 * Texts on the page that read as plain English, and texts cut off by their box. Run in the page
 * (as source text: the browser tests are type-checked without the DOM's types).
 */
const FIND_PROBLEMS = String.raw`(extra) => {
    const english = [];
    const cutOff = [];
    // Shown on screen: not hidden, and not a screen reader's text (clipped to nothing).
    const clippedAway = (element) => {
      for (let at = element; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (style.clipPath === 'inset(50%)' || style.clip === 'rect(0px, 0px, 0px, 0px)') return true;
      }
      return false;
    };
    const visible = (element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && !element.closest('[aria-hidden="true"]') && !clippedAway(element);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (!parent || text === '' || parent.closest('script, style, noscript, code, pre, kbd, input, textarea') || !visible(parent)) continue;
      let rest = text.replace(/\S+@\S+/g, ' ').replace(/https?:\/\/\S+/g, ' ');
      for (const word of extra) rest = rest.replaceAll(word, ' ');
      const words = rest.match(/[A-Za-z]{3,}/g) ?? [];
      if (words.some((word) => !extra.includes(word))) english.push(text);
      // Cut off: wider than its own box that hides what overflows (an ellipsis is a deliberate
      // cut, with the whole text in a title or on the next screen), or reaching past the edge of
      // a box around it that hides what overflows (a scrolling box is fine: it scrolls).
      const style = getComputedStyle(parent);
      if ((style.overflowX === 'hidden' || style.overflowX === 'clip') && style.textOverflow !== 'ellipsis' && parent.scrollWidth > parent.clientWidth + 1) cutOff.push(text);
      const box = parent.getBoundingClientRect();
      for (let at = parent.parentElement; at && at !== document.body; at = at.parentElement) {
        const overflow = getComputedStyle(at).overflowX;
        if (overflow === 'auto' || overflow === 'scroll') break;
        if (overflow !== 'hidden' && overflow !== 'clip') continue;
        const edge = at.getBoundingClientRect();
        if (box.right > edge.right + 1 || box.left < edge.left - 1) cutOff.push(text);
        break;
      }
    }
    return { english, cutOff };
  }`;

async function findProblems(page: Page, allowed: readonly string[]): Promise<{ english: string[]; cutOff: string[] }> {
  return page.evaluate<{ english: string[]; cutOff: string[] }>(`(${FIND_PROBLEMS})(${JSON.stringify(allowed)})`);
}

async function expectTranslated(page: Page, screen: string, allowed: readonly string[]) {
  // Fonts and late chunks: the page is settled when the network is.
  await page.waitForLoadState('networkidle');
  const { english, cutOff } = await findProblems(page, allowed);
  const words = english.filter((text) => !(text.match(/[A-Za-z]{3,}/g) ?? []).every((word) => MONTHS_AND_DAYS.test(word)));
  expect(words, `untranslated text on ${screen}`).toEqual([]);
  expect(cutOff, `text cut off at 360 px on ${screen}`).toEqual([]);
}

test('signed out: the sign-in and sign-up pages', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  // The check itself finds plain English on the page.
  await page.evaluate('document.body.insertAdjacentHTML("beforeend", "<p id=probe>Plain English words</p>")');
  expect((await findProblems(page, [...ALLOWED])).english).toContain('Plain English words');
  await page.evaluate('document.getElementById("probe").remove()');
  await expectTranslated(page, '/login', [...ALLOWED]);
  await page.goto('/sign-up');
  await expectTranslated(page, '/sign-up', [...ALLOWED]);
});

test.describe('signed in', () => {
  test.use({ signedIn: true });

  test('the board and its views, a task, the settings and the account', async ({ page, user }) => {
    const allowed = [...ALLOWED, user.fullName, ...user.fullName.split(/\s+/)];
    const created = await apiCreateBoard(page.request, 'Ƥŕōĵēćţ Ōŕĩōń');
    await apiCreateLabel(page.request, created._id, 'Ũŕĝēńţ', 'red');
    const taskId = await apiCreateTask(page.request, { taskTitle: 'Ŵŕĩţē ţĥē ŕēƥōŕţ', assignee: user.email, boardId: created._id, priority: 'high', deadline: new Date(Date.now() + 3 * 86_400_000).toISOString() });

    await page.goto('/tasks');
    await expectTranslated(page, 'all my tasks', allowed);
    await page.goto(`/boards/${created._id}`);
    await expect(page.getByText('Ŵŕĩţē ţĥē ŕēƥōŕţ').first()).toBeVisible();
    await expectTranslated(page, 'the board', allowed);
    for (const view of ['table', 'calendar', 'timeline']) {
      await page.goto(`/boards/${created._id}?view=${view}`);
      await expectTranslated(page, `the ${view} view`, allowed);
    }
    await page.goto(`/boards/${created._id}/tasks/${taskId}`);
    await expect(page.getByRole('heading', { name: 'Ŵŕĩţē ţĥē ŕēƥōŕţ' })).toBeVisible();
    await expectTranslated(page, 'the task page', allowed);
    await page.goto(`/boards/${created._id}/settings`);
    await expectTranslated(page, 'the board settings', allowed);
    await page.goto('/account');
    await expectTranslated(page, 'the account page', allowed);
  });
});

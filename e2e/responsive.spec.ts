/** Responsive down to 360 px wide — no page scrolls sideways at that width. */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { board } from './support/pages.ts';

test.use({ viewport: { width: 360, height: 740 } });

/** The innermost elements sticking out past the right edge, for a readable failure. */
const overflow = (page: Page) =>
  page.evaluate<{ scrollWidth: number; clientWidth: number; offenders: string[] }>(`(() => {
    const width = document.documentElement.clientWidth;
    const out = [...document.querySelectorAll('body *')].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > width + 1;
    });
    const innermost = out.filter((el) => !out.some((other) => other !== el && el.contains(other)));
    const describe = (el) => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' "' + (el.textContent || '').trim().slice(0, 30) + '" (right edge ' + Math.round(el.getBoundingClientRect().right) + ' px)';
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: width, offenders: innermost.slice(0, 6).map(describe) };
  })()`);

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const result = await overflow(page);
  expect(result.scrollWidth, `page is ${result.scrollWidth} px wide at ${result.clientWidth} px; sticking out: ${result.offenders.join(', ')}`).toBeLessThanOrEqual(result.clientWidth);
}

test.describe('signed out at 360 px', () => {
  for (const path of ['/login', '/sign-up', '/not-a-page']) {
    test(`${path} fits without sideways scrolling`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page);
    });
  }
});

test.describe('signed in at 360 px', () => {
  test.use({ signedIn: true });

  test('the landing page fits without sideways scrolling', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('the board fits without sideways scrolling', async ({ page, user }) => {
    await apiCreateTask(page.request, { taskTitle: `Narrow ${randomSuffix()}`, assignee: user.email, priority: 'urgent', workTitle: 'Mobile' });
    await page.goto('/tasks');
    await expect(board(page).cards).toHaveCount(1);
    await expectNoSidewaysScroll(page);
  });
});

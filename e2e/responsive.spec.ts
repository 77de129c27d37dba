/** Responsive down to 360 px wide — no page scrolls sideways at that width. */
import { apiCreateTask, expect, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';
import { board } from './support/pages.ts';

test.use({ viewport: { width: 360, height: 740 } });

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

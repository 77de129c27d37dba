/** Layout checks shared by the narrow-screen specs. */
import { expect, type Page } from '@playwright/test';

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

/** Fails, naming what sticks out, when the page is wider than the window. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const result = await overflow(page);
  expect(result.scrollWidth, `page is ${result.scrollWidth} px wide at ${result.clientWidth} px; sticking out: ${result.offenders.join(', ')}`).toBeLessThanOrEqual(result.clientWidth);
}

/** Both themes on a phone and a desktop: where screens are checked with axe and shot. */
export const THEMES_AND_SIZES = (['light', 'dark'] as const).flatMap((colorScheme) =>
  (
    [
      ['phone', { width: 360, height: 740 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const
  ).map(([label, size]) => ({ colorScheme, label, size })),
);

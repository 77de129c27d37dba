/**
 * Cards and columns dragged by touch: a long press starts the browser's own drag, as on a
 * phone or tablet, and the card lands where the line or outline showed. On a tablet (two or
 * more columns side by side) a card goes to another column and a column moves; on a phone (one
 * column at a time) a card is reordered within the column shown, and goes to another column
 * through the table view's selection and "Move to column".
 *
 * How the touch is driven: CDP's Input.dispatchTouchEvent never makes a long press in headless
 * Chromium (a 1.5 s hold still ends as a tap), so the finger is Chromium's synthetic pointer
 * actions (`chrome.gpuBenchmarking.pointerActionSequence`, with --enable-gpu-benchmarking for
 * this file's browser), which go through the platform's gesture recognition: the long press
 * fires a trusted `dragstart` on the card. Headless Chromium has no platform drag loop (the drag
 * would end at once), so the drag is intercepted (Input.setInterceptDrags) and its moves and drop
 * are dispatched as drag events (Input.dispatchDragEvent), as Playwright does for a mouse drag.
 * See docs/decisions/140-touch-drag-tested-through-cdp.md.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { apiCreateTask, baseURL, expect, signedInState, test, type TestUser } from './fixtures.ts';
import { apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';
import { chromeArgs, fullChromePath } from './support/paths.ts';

// The whole browser: the headless shell's gestures never make a long press.
test.use({ launchOptions: { executablePath: fullChromePath, args: [...chromeArgs, '--enable-gpu-benchmarking'] } });

const column = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });

interface Point {
  x: number;
  y: number;
}
/** What Input.dragIntercepted hands over, given back with each drag event. */
interface DragData {
  items: { mimeType: string; data: string; title?: string; baseURL?: string }[];
  dragOperationsMask: number;
  files?: string[];
}

/** The synthetic-gesture API Chromium exposes to pages under --enable-gpu-benchmarking. */
interface PointerAction {
  name: 'pointerDown' | 'pointerMove' | 'pointerUp' | 'pause';
  x?: number;
  y?: number;
  duration?: number;
}
interface GpuBenchmarking {
  pointerActionSequence: (sequence: { source: 'touch'; actions: PointerAction[] }[], done: () => void) => boolean;
}

/** Where a finger goes: a fraction of `locator`'s box (0.5, 0.5 by default: its middle). */
interface Spot {
  locator: Locator;
  fx?: number;
  fy?: number;
}

/**
 * A spot's point on screen (scrolled into view first when `scroll`): its fractions of the part of
 * its box inside the viewport. A finger can only press what is on screen.
 */
async function pointIn({ locator, fx = 0.5, fy = 0.5 }: Spot, scroll: boolean): Promise<Point> {
  if (scroll) await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const viewport = locator.page().viewportSize();
  if (!box || !viewport) throw new Error(`${String(locator)} has no box`);
  const left = Math.max(box.x, 0);
  const top = Math.max(box.y, 0);
  const right = Math.min(box.x + box.width, viewport.width);
  const bottom = Math.min(box.y + box.height, viewport.height);
  if (right <= left || bottom <= top) throw new Error(`${String(locator)} is not on screen`);
  return { x: Math.round(left + (right - left) * fx), y: Math.round(top + (bottom - top) * fy) };
}

/**
 * Presses a finger on `source` (scrolled into view) for 800 ms (Chromium's long press is
 * 500 ms), lifts it once the browser has started its drag, carries the drag in steps to
 * `target` (which must be on screen then: nothing scrolls during the drag), runs `whileOver`
 * there before the drop (to see where it would land), then drops. Fails when the long press
 * starts no drag: nothing here fakes a `dragstart`.
 */
async function touchDrag(page: Page, source: Spot, target: Spot, whileOver?: () => Promise<void>): Promise<void> {
  const from = await pointIn(source, true);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.setInterceptDrags', { enabled: true });
    const started = new Promise<DragData>((resolve) => {
      cdp.once('Input.dragIntercepted', (event) => {
        resolve(event.data);
      });
    });
    // What the page saw: the kind of pointer pressed, and whether the drag the browser began is
    // its own (trusted), the proof that the long press by touch started it.
    await page.evaluate(() => {
      interface Seen {
        touchDragSeen: string[];
        addEventListener: (type: string, listener: (event: { pointerType?: string; isTrusted: boolean }) => void, options: object) => void;
      }
      const page = globalThis as unknown as Seen;
      const seen: string[] = (page.touchDragSeen = []);
      page.addEventListener('pointerdown', (event) => { seen.push(`pointerdown ${event.pointerType ?? ''}`); }, { capture: true, once: true });
      page.addEventListener('dragstart', (event) => { seen.push(`dragstart ${event.isTrusted ? 'trusted' : 'untrusted'}`); }, { capture: true, once: true });
    });
    const pressed = page.evaluate(
      ({ x, y }) =>
        new Promise<void>((resolve, reject) => {
          const gpu = (globalThis as unknown as { chrome?: { gpuBenchmarking?: GpuBenchmarking } }).chrome?.gpuBenchmarking;
          if (!gpu) {
            reject(new Error('chrome.gpuBenchmarking is missing: the browser needs --enable-gpu-benchmarking'));
            return;
          }
          const actions: PointerAction[] = [{ name: 'pointerDown', x, y }, { name: 'pause', duration: 800 }, { name: 'pointerMove', x: x + 4, y: y + 6 }, { name: 'pointerUp' }];
          gpu.pointerActionSequence([{ source: 'touch', actions }], resolve);
        }),
      from,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const noDrag = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error('the long press started no drag'));
      }, 5_000);
    });
    const [data] = await Promise.all([Promise.race([started, noDrag]), pressed]).finally(() => {
      clearTimeout(timer);
    });
    expect(await page.evaluate(() => (globalThis as unknown as { touchDragSeen: string[] }).touchDragSeen)).toEqual(['pointerdown touch', 'dragstart trusted']);
    const to = await pointIn(target, false);
    const steps = 8;
    await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', x: from.x, y: from.y, data });
    for (let i = 1; i <= steps; i++) {
      const x = Math.round(from.x + ((to.x - from.x) * i) / steps);
      const y = Math.round(from.y + ((to.y - from.y) * i) / steps);
      await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data });
    }
    // A second "over" where it lands: pragmatic-drag-and-drop updates on the frame after a move.
    await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x: to.x, y: to.y, data });
    if (whileOver) await whileOver();
    await cdp.send('Input.dispatchDragEvent', { type: 'drop', x: to.x, y: to.y, data });
  } finally {
    await cdp.detach();
  }
}

interface ApiTask {
  _id: string;
  taskTitle: string;
  columnId: string;
}

/** The titles in a column, in its own order, as the API has them. */
async function apiColumnTitles(page: Page, boardId: string, columnId: string): Promise<string[]> {
  const res = await page.request.get(`/api/tasks?board=${boardId}&column=${columnId}&sort=position`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { tasks: ApiTask[] } }).data.tasks.map((t) => t.taskTitle);
}

/** A board with "Tasks To Do", "Review" and "Completed", and `titles` in To Do, top first. */
async function boardWithCards(page: Page, user: TestUser, titles: string[]) {
  const board = await apiCreateBoard(page.request, `Touch ${randomSuffix()}`);
  const res = await page.request.get(`/api/boards/${board._id}/columns`);
  const { columns } = ((await res.json()) as { data: { columns: { _id: string; name: string }[] } }).data;
  const todo = columns[0]?._id ?? '';
  const review = await page.request.post(`/api/boards/${board._id}/columns`, { data: { name: 'Review', category: 'todo', afterId: todo } });
  expect(review.status()).toBe(201);
  const reviewId = ((await review.json()) as { data: { column: { _id: string } } }).data.column._id;
  // A new task goes to the top: made last to first.
  for (const title of [...titles].reverse()) await apiCreateTask(page.request, { taskTitle: title, assignee: user.email, boardId: board._id });
  return { board, todo, review: reviewId };
}

/** A signed-in touch device of `width` × `height`. */
async function touchPage(browser: Browser, user: TestUser, width: number, height: number, isMobile: boolean) {
  const context = await browser.newContext({
    baseURL: baseURL(),
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
    storageState: await signedInState(user),
    viewport: { width, height },
    hasTouch: true,
    isMobile,
  });
  const page = await context.newPage();
  // Headless Chromium's window is the viewport less its (hidden) toolbars, and a synthetic touch
  // outside the window is dropped: a window taller and wider than the viewport lets a finger
  // reach all of it. The page still lays out at `width` × `height`.
  const cdp = await context.newCDPSession(page);
  const { windowId } = await cdp.send('Browser.getWindowForTarget');
  await cdp.send('Browser.setWindowBounds', { windowId, bounds: { width: width + 200, height: height + 200 } });
  await cdp.detach();
  return { context, page };
}

test('on a touch tablet, a card long-pressed and dragged to another column lands there, shown before the drop', async ({ browser, user }) => {
  const { context, page } = await touchPage(browser, user, 1024, 768, false);
  try {
    const a = `Draft the brief ${randomSuffix()}`;
    const b = `Book the venue ${randomSuffix()}`;
    const { board, todo, review } = await boardWithCards(page, user, [a, b]);
    await page.goto(`/boards/${board._id}`);
    const reviewColumn = column(page, 'Review');
    await expect(card(page, b)).toBeVisible();
    await expect(reviewColumn).toBeInViewport();

    // Pressed on the card's title, a link (where a finger most often lands), dropped in the
    // empty Review column: the card moves, not the link's address.
    await touchDrag(page, { locator: card(page, b).getByRole('link', { name: b }) }, { locator: reviewColumn }, async () => {
      await expect(reviewColumn).toHaveClass(/column--drop-over/);
      await expect(page.locator('.card-drag[data-dragging]')).toHaveCount(1);
    });
    await expect(reviewColumn.getByRole('article', { name: b })).toBeVisible();
    await expect(reviewColumn).not.toHaveClass(/column--drop-over/);
    await expect(column(page, 'Tasks To Do').getByRole('article')).toHaveCount(1);

    await page.reload();
    await expect(column(page, 'Review').getByRole('article', { name: b })).toBeVisible();
    expect(await apiColumnTitles(page, board._id, review)).toEqual([b]);
    expect(await apiColumnTitles(page, board._id, todo)).toEqual([a]);
  } finally {
    await context.close();
  }
});

test('on a touch tablet, a column long-pressed by its header moves before another', async ({ browser, user }) => {
  const { context, page } = await touchPage(browser, user, 1024, 768, false);
  try {
    const { board } = await boardWithCards(page, user, [`Only card ${randomSuffix()}`]);
    await page.goto(`/boards/${board._id}`);
    const headings = page.locator('section[data-column-id] h2');
    await expect(headings).toHaveText(['Tasks To Do', 'Review', 'Completed']);

    // Review's header onto the left edge of To Do.
    const target = column(page, 'Tasks To Do');
    await touchDrag(page, { locator: column(page, 'Review').locator('h2'), fx: 0.3 }, { locator: target, fx: 0.1 }, async () => {
      await expect(target).toHaveAttribute('data-drop-edge', 'left');
    });
    await expect(headings).toHaveText(['Review', 'Tasks To Do', 'Completed']);

    await page.reload();
    await expect(headings).toHaveText(['Review', 'Tasks To Do', 'Completed']);
    const res = await page.request.get(`/api/boards/${board._id}/columns`);
    const { columns } = ((await res.json()) as { data: { columns: { name: string }[] } }).data;
    expect(columns.map((c) => c.name)).toEqual(['Review', 'Tasks To Do', 'Completed']);
  } finally {
    await context.close();
  }
});

test('on a phone, a card dragged by touch is reordered in the column shown; the table view’s selection moves it to another column', async ({ browser, user }) => {
  const { context, page } = await touchPage(browser, user, 360, 740, true);
  try {
    const a = `First ${randomSuffix()}`;
    const b = `Second ${randomSuffix()}`;
    const c = `Third ${randomSuffix()}`;
    const { board, todo, review } = await boardWithCards(page, user, [a, b, c]);
    await page.goto(`/boards/${board._id}`);
    const todoColumn = column(page, 'Tasks To Do');
    const cards = todoColumn.getByRole('article');
    await expect(cards).toHaveCount(3);
    await expect(column(page, 'Review')).toHaveCount(0);

    // First, pressed on its meta, onto the lower half of Second: the line shows below Second.
    await touchDrag(page, { locator: card(page, a).locator('dl') }, { locator: card(page, b), fy: 0.8 }, async () => {
      await expect(page.locator('.card-drag[data-drop-edge="bottom"]')).toContainText(b);
    });
    await expect(cards.locator('h3')).toHaveText([b, a, c]);
    await page.reload();
    await expect(column(page, 'Tasks To Do').getByRole('article').locator('h3')).toHaveText([b, a, c]);
    expect(await apiColumnTitles(page, board._id, todo)).toEqual([b, a, c]);

    // Another column is not on screen to drop on: the table view selects by touch and moves.
    await page.getByRole('combobox', { name: 'View' }).selectOption('Table');
    await expect(page.getByRole('table', { name: 'Tasks' })).toBeVisible();
    await page.getByRole('checkbox', { name: `Select “${a}”` }).tap();
    const bar = page.getByRole('region', { name: 'Change the selected tasks' });
    await expect(bar.getByText('1 selected')).toBeVisible();
    await bar.getByLabel('Move to column').selectOption({ label: 'Review' });
    await expect.poll(() => apiColumnTitles(page, board._id, review)).toEqual([a]);
    expect(await apiColumnTitles(page, board._id, todo)).toEqual([b, c]);
    // Back on the board, the switcher shows it in Review.
    await page.getByRole('combobox', { name: 'View' }).selectOption('Board');
    await page.getByRole('group', { name: 'Column shown' }).getByRole('button', { name: /^Review/ }).tap();
    await expect(column(page, 'Review').getByRole('article', { name: a })).toBeVisible();
  } finally {
    await context.close();
  }
});

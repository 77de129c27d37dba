/**
 * Playwright fixtures shared by every spec.
 *
 * - `createUser()` / `user`: a unique signed-up user written straight into the test database.
 * - `test.use({ signedIn: true })`: the page starts signed in as `user` — the session cookie
 *   comes from a real `POST /api/users/login`, and localStorage holds the `isLoggedIn` flag, as
 *   after a sign-in through the form. Only one spec walks the real e-mail code flow, because the
 *   server caps one-time codes at 30 per IP per hour.
 * - `readLatestCode(email)`: the 6-digit code of the newest mail caught for that address.
 */
import AxeBuilder from '@axe-core/playwright';
import { request, test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LOGGED_IN_FLAG } from '../shared/constants.ts';
import { clearSignInBudget, insertTask, insertUser, newUserData, openDb, randomSuffix, type SeedTask, type TestUser } from './support/db.ts';
import { codeIn, readCaughtMails, type CaughtMail } from '../server/test/mail-catcher.ts';
import { ENV, requireEnv } from './support/paths.ts';

export { expect };
export type { TestUser };

type StorageState = Exclude<Parameters<Browser['newContext']>[0], undefined>['storageState'];

/** The value the web app stores under `isLoggedIn` on sign-in. */
export const LOGGED_IN_VALUE = 'true';

export const baseURL = (): string => requireEnv(ENV.baseURL);

/** Signs `user` in through the API and returns a storage state holding its session. */
export async function signedInState(user: TestUser): Promise<StorageState> {
  const origin = baseURL();
  // An empty storage state of its own: inside a test, request.newContext() would otherwise start
  // from the test's (a signed-in page's cookie), and this sign-in would end that session.
  const api = await request.newContext({ baseURL: origin, storageState: { cookies: [], origins: [] } });
  const db = openDb(requireEnv(ENV.dbPath));
  try {
    clearSignInBudget(db);
  } finally {
    db.close();
  }
  try {
    const res = await api.post('/api/users/login', { data: { email: user.email, password: user.password } });
    if (res.status() !== 200) throw new Error(`Fast sign-in of ${user.email} failed: HTTP ${res.status()} ${await res.text()}`);
    const state = await api.storageState();
    return { cookies: state.cookies, origins: [{ origin, localStorage: [{ name: LOGGED_IN_FLAG, value: LOGGED_IN_VALUE }] }] };
  } finally {
    await api.dispose();
  }
}

/** A second (third, …) browser context already signed in as `user`. */
export async function newSignedInContext(browser: Browser, user: TestUser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseURL(), locale: 'en-US', timezoneId: 'Europe/Berlin', storageState: await signedInState(user) });
}

/** Every caught mail to `email`, oldest first. */
export const mailsTo = (email: string): CaughtMail[] => {
  const address = email.trim().toLowerCase();
  return readCaughtMails(requireEnv(ENV.mailDir)).filter((m) => m.to.includes(address));
};

/**
 * Polls the caught mails until one to `email`, newer than the first `after` of them, carries a
 * code, and returns the newest such code.
 */
export async function readLatestCode(email: string, options: { after?: number; timeoutMs?: number } = {}): Promise<string> {
  const latest = () => mailsTo(email).slice(options.after ?? 0).map(codeIn).findLast((c) => c !== undefined);
  await expect.poll(latest, { message: `a mail with a 6-digit code reaches ${email}`, timeout: options.timeoutMs ?? 15_000 }).toBeDefined();
  return latest()!;
}

/** How many mails have been caught for `email` so far (pass it as `after` to wait for a newer one). */
export function mailCount(email: string): number {
  return mailsTo(email).length;
}

/** Runs axe with the WCAG 2.0/2.1/2.2 A and AA rules and fails on serious or critical violations. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  // Right after a change of theme, colours are still in their CSS transitions (buttons fade
  // theirs): axe would measure a contrast half-way between the themes. Wait for them to end.
  await page.waitForFunction(() => {
    interface Running {
      playState: string;
      constructor: { name: string };
    }
    const { document } = globalThis as unknown as { document: { getAnimations: () => Running[] } };
    return document.getAnimations().every((a) => a.constructor.name !== 'CSSTransition' || a.playState !== 'running');
  });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = blocking.map((v) => `${v.impact}: ${v.id} — ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`);
  expect(summary, `axe violations on ${state}`).toEqual([]);
}

interface TestFixtures {
  /** When true, the default context starts signed in as `user`. */
  signedIn: boolean;
  createUser: (overrides?: Partial<TestUser>) => Promise<TestUser>;
  user: TestUser;
  seedTask: (creator: TestUser, task: SeedTask) => string;
}
interface WorkerFixtures {
  db: ReturnType<typeof openDb>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form.
  baseURL: async ({}, use) => {
    await use(baseURL());
  },
  db: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form.
    async ({}, use) => {
      const db = openDb(requireEnv(ENV.dbPath));
      await use(db);
      db.close();
    },
    { scope: 'worker' },
  ],
  signedIn: [false, { option: true }],
  createUser: async ({ db }, use) => {
    await use(async (overrides) => {
      const user = newUserData(overrides);
      await insertUser(db, user);
      return user;
    });
  },
  user: async ({ createUser }, use) => {
    await use(await createUser());
  },
  seedTask: async ({ db }, use) => {
    await use((creator, task) => insertTask(db, creator.email, task));
  },
  storageState: async ({ signedIn, user, storageState }, use) => {
    await use(signedIn ? await signedInState(user) : storageState);
  },
});

export interface NewTask {
  taskTitle: string;
  assignee: string;
  workTitle?: string;
  priority?: 'normal' | 'low' | 'high' | 'urgent';
  deadline?: string | null;
  startAt?: string | null;
  /** The board to create it on (default: the creator's personal board). */
  boardId?: string;
}

/** Creates a task through the API as whoever `api` (e.g. `page.request`) is signed in as. */
export async function apiCreateTask(api: Page['request'], task: NewTask): Promise<string> {
  const res = await api.post('/api/tasks', { data: task });
  if (res.status() !== 201) throw new Error(`POST /api/tasks answered ${res.status()}: ${await res.text()}`);
  const body = (await res.json()) as { data: { task: { _id: string } } };
  return body.data.task._id;
}

/** Two people, Alice and Bob, each signed in in a browser context of their own. */
export async function twoPeople(browser: Browser, createUser: (overrides?: Partial<TestUser>) => Promise<TestUser>) {
  const alice = await createUser({ fullName: `Alice ${randomSuffix()}` });
  const bob = await createUser({ fullName: `Bob ${randomSuffix()}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  return {
    alice,
    bob,
    alicePage: await aliceContext.newPage(),
    bobPage: await bobContext.newPage(),
    close: async () => {
      await aliceContext.close();
      await bobContext.close();
    },
  };
}

/**
 * `npm run screenshots`: regenerates docs/screenshots/*.png at 360×740 and 1280×800 — landing,
 * login, sign-up step 2, a board holding tasks of every priority (one overdue, some done), the
 * same board in the dark theme, a task page with its labels, checklist, description, comments
 * (with mentions) and activity, a shared board with labels, checklists and a repeating task and
 * the board switcher (the sidebar at 1280, its menu open at 360), its settings, and the
 * notifications panel in both themes, and a team's board in Arabic (right to left) and in Japanese.
 * Uses the browser-test harness (e2e/support/harness.ts): a fresh SQLite database, a real SMTP
 * catcher, and the server started as `npm start` starts it, in Debian's Chromium.
 */
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { insertTask, insertUser, type TestUser } from '../e2e/support/db.ts';
import { openDb } from '../e2e/support/db.ts';
import { buildWeb, startHarness, type Harness } from '../e2e/support/harness.ts';
import { chromeArgs, chromePath, repoRoot } from '../e2e/support/paths.ts';
import { LOGGED_IN_FLAG } from '../shared/constants.ts';

const outDir = join(repoRoot, 'docs/screenshots');
const say = (line: string) => process.stdout.write(`${line}\n`);
const viewports = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
] as const;

const owner: TestUser = { email: 'ada@example.test', fullName: 'Ada Lovelace', password: 'analytical-engine-1843' };
const colleagues = ['grace@example.test', 'alan@example.test', 'katherine@example.test'] as const;
const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

async function seed(harness: Harness): Promise<void> {
  const db = openDb(harness.dbPath);
  try {
    await insertUser(db, owner);
    const now = Date.now();
    let minute = 0;
    const at = () => new Date(now - (minute += 7) * 60_000);
    const tasks = [
      { workTitle: 'Launch', taskTitle: 'Fix the sign-in outage on mobile', assignee: owner.email, priority: 'urgent', deadline: hours(5) },
      { workTitle: 'Finance', taskTitle: 'Send the quarterly invoice', assignee: owner.email, priority: 'high', deadline: hours(-20) },
      { workTitle: 'Launch', taskTitle: 'Write the release notes', assignee: colleagues[0], priority: 'high', deadline: hours(30) },
      { workTitle: 'Website', taskTitle: 'Refresh the pricing page copy', assignee: colleagues[1], priority: 'normal', deadline: hours(24 * 6) },
      { workTitle: '', taskTitle: 'Book the team offsite venue', assignee: colleagues[2], priority: 'low', deadline: null },
      { workTitle: 'Launch', taskTitle: 'Record the product demo', assignee: owner.email, priority: 'normal', deadline: hours(-48), status: 'done' },
      { workTitle: 'Website', taskTitle: 'Compress hero images', assignee: colleagues[1], priority: 'low', deadline: null, status: 'done' },
    ] as const;
    for (const task of tasks) {
      insertTask(db, owner.email, { ...task, createdAt: at() });
    }
  } finally {
    db.close();
  }
}

async function newContext(browser: Browser, harness: Harness, viewport: (typeof viewports)[number], signedIn: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: harness.baseURL,
    viewport,
    deviceScaleFactor: 1,
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
    reducedMotion: 'reduce',
  });
  if (signedIn) {
    const res = await context.request.post('/api/users/login', { data: { email: owner.email, password: owner.password } });
    if (res.status() !== 200) throw new Error(`sign-in failed: HTTP ${res.status()} ${await res.text()}`);
    await context.addInitScript(`localStorage.setItem(${JSON.stringify(LOGGED_IN_FLAG)}, 'true')`);
  }
  return context;
}

const colleague: TestUser = { email: colleagues[0], fullName: 'Grace Hopper', password: 'compiler-a0-1952-grace' };

/** A task with a history, made through the API so its activity and comments are real. */
async function seedTaskPage(browser: Browser, harness: Harness): Promise<string> {
  const db = openDb(harness.dbPath);
  try {
    await insertUser(db, colleague);
  } finally {
    db.close();
  }
  const as = async (user: TestUser) => {
    const context = await browser.newContext({ baseURL: harness.baseURL });
    const res = await context.request.post('/api/users/login', { data: { email: user.email, password: user.password } });
    if (res.status() !== 200) throw new Error(`sign-in of ${user.email} failed: HTTP ${res.status()}`);
    return context;
  };
  const call = async (context: BrowserContext, method: 'post' | 'patch', path: string, data: object) => {
    const res = await context.request[method](path, { data });
    if (res.status() >= 300) throw new Error(`${method.toUpperCase()} ${path}: HTTP ${res.status()} ${await res.text()}`);
    return (await res.json()) as { data: { task?: { _id: string; boardId: string; version: number }; label?: { _id: string } } };
  };
  const ada = await as(owner);
  const grace = await as(colleague);
  try {
    const created = await call(ada, 'post', '/api/tasks', {
      workTitle: 'Launch',
      taskTitle: 'Prepare the launch checklist',
      assignee: colleague.email,
      priority: 'normal',
      deadline: hours(52).toISOString(),
    });
    const id = created.data.task?._id ?? '';
    const board = created.data.task?.boardId ?? '';
    const labelIds: string[] = [];
    for (const [name, color] of [['Launch', 'blue'], ['Docs', 'purple']] as const) {
      labelIds.push((await call(ada, 'post', `/api/boards/${board}/labels`, { name, color })).data.label?._id ?? '');
    }
    await call(ada, 'patch', `/api/tasks/${id}`, {
      priority: 'high',
      labelIds,
      description: 'Everything that has to be true before we announce.\n\nDraft: https://example.com/launch/checklist',
    });
    const items = ['Status page green for 24 hours', 'Release notes merged', 'Support macros updated', 'Announcement scheduled'];
    const itemIds: string[] = [];
    for (const text of items) itemIds.push(((await call(ada, 'post', `/api/tasks/${id}/checklist`, { text })).data as { item?: { _id: string } }).item?._id ?? '');
    for (const item of itemIds.slice(0, 2)) await call(grace, 'patch', `/api/tasks/${id}/checklist/${item}`, { done: true });
    await call(grace, 'post', `/api/tasks/${id}/comments`, { body: `I will take the status page. @${owner.email} the release notes draft is here: https://example.com/notes` });
    await call(ada, 'post', `/api/tasks/${id}/comments`, { body: `Thanks @${colleague.email}! Support macros are next.` });
    return id;
  } finally {
    await ada.close();
    await grace.close();
  }
}

/**
 * A shared board made through the API as a team would: Ada creates "Launch", adds Grace as a
 * member and an address without an account as a viewer (an invitation), and both put tasks on it.
 */
async function seedSharedBoard(browser: Browser, harness: Harness): Promise<string> {
  const login = async (user: TestUser) => {
    const context = await browser.newContext({ baseURL: harness.baseURL });
    const res = await context.request.post('/api/users/login', { data: { email: user.email, password: user.password } });
    if (res.status() !== 200) throw new Error(`sign-in of ${user.email} failed: HTTP ${res.status()}`);
    return context;
  };
  const call = async (context: BrowserContext, path: string, data: object) => {
    const res = await context.request.post(path, { data });
    if (res.status() >= 300) throw new Error(`POST ${path}: HTTP ${res.status()} ${await res.text()}`);
    return (await res.json()) as { data: { board?: { _id: string }; label?: { _id: string }; task?: { _id: string } } };
  };
  const ada = await login(owner);
  const grace = await login(colleague);
  try {
    const created = await call(ada, '/api/boards', { name: 'Launch', description: 'Everything that ships with the spring release.' });
    const boardId = created.data.board?._id ?? '';
    await call(ada, `/api/boards/${boardId}/members`, { email: colleague.email, role: 'member' });
    await call(ada, `/api/boards/${boardId}/members`, { email: colleagues[1], role: 'viewer' });
    const label: Record<string, string> = {};
    for (const [name, color] of [['Release', 'blue'], ['Copy', 'purple'], ['Support', 'teal'], ['Blocked', 'red']] as const) {
      label[name] = (await call(ada, `/api/boards/${boardId}/labels`, { name, color })).data.label?._id ?? '';
    }
    const tasks = [
      [ada, { taskTitle: 'Freeze the release branch', assignee: owner.email, priority: 'urgent', deadline: hours(20).toISOString(), labelIds: [label.Release] }],
      [grace, { taskTitle: 'Update the status page copy', assignee: colleague.email, priority: 'high', deadline: hours(50).toISOString(), labelIds: [label.Copy, label.Blocked] }],
      [grace, { taskTitle: 'Brief the support team', assignee: colleagues[2], priority: 'normal', labelIds: [label.Support] }],
      [ada, { taskTitle: 'Send the weekly release status', assignee: owner.email, priority: 'normal', deadline: hours(24 * 2).toISOString(), repeat: { every: 1, unit: 'week' } }],
      [ada, { taskTitle: 'Draft the launch announcement', assignee: colleague.email, priority: 'normal', deadline: hours(24 * 4).toISOString(), labelIds: [label.Copy] }],
    ] as const;
    const ids: Record<string, string> = {};
    for (const [as, task] of tasks) {
      const created = await call(as, '/api/tasks', { ...task, workTitle: 'Spring release', boardId });
      ids[task.taskTitle] = created.data.task?._id ?? '';
      if (task.taskTitle === 'Freeze the release branch') {
        for (const text of ['Tag the release candidate', 'Announce the freeze', 'Lock merges']) await call(ada, `/api/tasks/${ids[task.taskTitle]}/checklist`, { text });
      }
    }
    // What Grace does that Ada's bell tells her about: a task for her, a comment on hers, one of hers completed.
    await call(grace, '/api/tasks', { taskTitle: 'Approve the launch budget', workTitle: 'Spring release', assignee: owner.email, priority: 'high', boardId });
    await call(grace, `/api/tasks/${ids['Freeze the release branch']}/comments`, { body: 'CI is green on the release branch: ready when you are.' });
    const done = await grace.request.patch(`/api/tasks/${ids['Draft the launch announcement']}`, { data: { status: 'done' } });
    if (done.status() !== 200) throw new Error(`completing a task: HTTP ${done.status()}`);
    return boardId;
  } finally {
    await ada.close();
    await grace.close();
  }
}

/**
 * A team's workflow board: "Tasks To Do", "In progress" (WIP limit 6) and "Completed", 30 cards
 * made through the API in the order a team would, with labels, deadlines and priorities.
 */
async function seedWorkflowBoard(browser: Browser, harness: Harness): Promise<string> {
  const context = await browser.newContext({ baseURL: harness.baseURL });
  const call = async (method: 'post' | 'patch' | 'get', path: string, data?: object) => {
    const res = await context.request[method](path, data === undefined ? {} : { data });
    if (res.status() >= 300) throw new Error(`${method.toUpperCase()} ${path}: HTTP ${res.status()} ${await res.text()}`);
    return (await res.json()) as { data: { board?: { _id: string }; columns?: { _id: string; name: string }[]; column?: { _id: string }; label?: { _id: string }; task?: { _id: string } } };
  };
  try {
    const login = await context.request.post('/api/users/login', { data: { email: owner.email, password: owner.password } });
    if (login.status() !== 200) throw new Error(`sign-in failed: HTTP ${login.status()}`);
    const boardId = (await call('post', '/api/boards', { name: 'Product', description: 'The product team’s week.' })).data.board?._id ?? '';
    const [todo, done] = (await call('get', `/api/boards/${boardId}/columns`)).data.columns ?? [];
    const doing = (await call('post', `/api/boards/${boardId}/columns`, { name: 'In progress', category: 'todo', wipLimit: 6, afterId: todo?._id ?? null })).data.column?._id ?? '';
    await call('post', `/api/boards/${boardId}/members`, { email: colleague.email, role: 'member' });
    const label: Record<string, string> = {};
    for (const [name, color] of [['Bug', 'red'], ['Design', 'purple'], ['API', 'blue'], ['Docs', 'teal']] as const) {
      label[name] = (await call('post', `/api/boards/${boardId}/labels`, { name, color })).data.label?._id ?? '';
    }
    const work = [
      'Fix the CSV export encoding', 'Design the onboarding checklist', 'Add rate limits to the API', 'Write the webhooks guide',
      'Profile the board query', 'Redesign the empty states', 'Paginate the activity feed', 'Translate the sign-up mail',
      'Audit the session cookies', 'Polish the dark theme', 'Retry failed webhook deliveries', 'Document the admin commands',
      'Speed up the search index', 'Sketch the calendar view', 'Review the import mapping', 'Clean up old feature flags',
      'Test the offline queue on iOS', 'Tighten the CSP', 'Ship compact cards', 'Measure the first paint',
      'Update the screenshots', 'Answer the Trello import thread', 'Plan the next release', 'Check the backup restore',
      'Move the docs to the new host', 'Review the WIP limits copy', 'Triage the inbox bugs', 'Draft the roadmap post',
      'Record the demo video', 'Archive the old boards',
    ];
    const labelsOf = ['Bug', 'Design', 'API', 'Docs'];
    const priorities = ['urgent', 'high', 'normal', 'normal', 'low'] as const;
    for (const [i, taskTitle] of work.entries()) {
      const columnId = i < 8 ? done?._id : i < 13 ? doing : todo?._id;
      await call('post', '/api/tasks', {
        taskTitle,
        workTitle: i % 3 === 0 ? 'Spring release' : '',
        assignee: [owner.email, colleague.email, colleagues[1], colleagues[2]][i % 4],
        priority: priorities[i % priorities.length],
        deadline: i % 4 === 3 ? undefined : hours(3 + i * 9).toISOString(),
        // Every other dated task has a start three days before its deadline: bars on the timeline.
        startAt: i % 4 === 3 || i % 2 === 1 ? undefined : hours(3 + i * 9 - 72).toISOString(),
        labelIds: i % 3 === 2 ? [] : [label[labelsOf[i % labelsOf.length] ?? 'Bug'] ?? ''],
        boardId,
        columnId,
      });
    }
    return boardId;
  } finally {
    await context.close();
  }
}

/** The workflow board: detailed cards in the light theme, compact cards in the dark one. */
async function shootWorkflowBoard(browser: Browser, harness: Harness, viewport: (typeof viewports)[number], boardId: string): Promise<void> {
  const shot = { animations: 'disabled', caret: 'hide' } as const;
  const suffix = String(viewport.width);
  const context = await newContext(browser, harness, viewport, true);
  try {
    const page = await context.newPage();
    for (const [theme, compact] of [['light', false], ['dark', true]] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`/boards/${boardId}?view=board`);
      await page.getByRole('article').first().waitFor();
      // The card size is one "Compact" toggle: in the first row when wide, in the Filters panel on a phone.
      const phone = viewport.width < 640;
      if (phone) await page.getByRole('button', { name: /^Filters/ }).click();
      const toggle = page.getByRole('group', { name: 'Card size' }).getByRole('button', { name: 'Compact' });
      if ((await toggle.getAttribute('aria-pressed')) !== String(compact)) await toggle.click();
      if (phone) await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('article').first().waitFor();
      // Closing the Filters panel may leave the page scrolled: the shot starts at the top.
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ ...shot, path: join(outDir, `workflow${theme === 'dark' ? '-dark' : ''}-${suffix}.png`) });
    }
  } finally {
    await context.close();
  }
}

/** The workflow board's table, calendar and timeline, and its lanes grouped by priority, in both themes. */
async function shootViews(browser: Browser, harness: Harness, viewport: (typeof viewports)[number], boardId: string): Promise<void> {
  const shot = { animations: 'disabled', caret: 'hide' } as const;
  const suffix = String(viewport.width);
  const context = await newContext(browser, harness, viewport, true);
  try {
    const page = await context.newPage();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const view of ['table', 'calendar', 'timeline', 'lanes'] as const) {
        // "lanes": the board grouped by priority, a lane per priority across its columns.
        await page.goto(view === 'lanes' ? `/boards/${boardId}?view=board&group=priority` : `/boards/${boardId}?view=${view}`);
        const ready = {
          table: page.getByRole('table'),
          calendar: page.getByRole('group', { name: 'Calendar range' }),
          timeline: page.getByRole('group', { name: 'Zoom' }),
          lanes: page.locator('.lane').first(),
        }[view];
        await ready.waitFor();
        if (view === 'lanes') await page.getByRole('article').first().waitFor();
        if (view === 'table') await page.getByRole('table').getByRole('row').nth(2).waitFor();
        if (view === 'timeline') await page.locator('.timeline__lane').first().waitFor();
        await page.screenshot({ ...shot, path: join(outDir, `view-${view}${theme === 'dark' ? '-dark' : ''}-${suffix}.png`) });
      }
    }
  } finally {
    await context.close();
  }
}

/** The shared board with the switcher (sidebar when wide, its menu open when narrow) and its settings page. */
async function shootSharedBoard(browser: Browser, harness: Harness, viewport: (typeof viewports)[number], boardId: string): Promise<void> {
  const shot = { animations: 'disabled', caret: 'hide' } as const;
  const suffix = String(viewport.width);
  const context = await newContext(browser, harness, viewport, true);
  try {
    const page = await context.newPage();
    await page.goto(`/boards/${boardId}`);
    await page.getByRole('article').first().waitFor();
    if (viewport.width < 1024) {
      await page.getByRole('button', { name: 'Switch board' }).click();
      await page.getByRole('link', { name: /^All my tasks/ }).waitFor();
    }
    await page.screenshot({ ...shot, path: join(outDir, `shared-board-${suffix}.png`) });
    await page.goto(`/boards/${boardId}/settings`);
    await page.getByRole('heading', { name: /Members/ }).waitFor();
    await page.screenshot({ ...shot, fullPage: true, path: join(outDir, `board-settings-${suffix}.png`) });
  } finally {
    await context.close();
  }
}

/** The notifications panel open over the board, in both themes. */
async function shootInbox(browser: Browser, harness: Harness, viewport: (typeof viewports)[number]): Promise<void> {
  const shot = { animations: 'disabled', caret: 'hide' } as const;
  const suffix = String(viewport.width);
  const context = await newContext(browser, harness, viewport, true);
  try {
    const page = await context.newPage();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto('/tasks');
      await page.getByRole('article').first().waitFor();
      await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
      await page.getByRole('link', { name: /^Unread: / }).first().waitFor();
      await page.screenshot({ ...shot, path: join(outDir, `inbox${theme === 'dark' ? '-dark' : ''}-${suffix}.png`) });
    }
  } finally {
    await context.close();
  }
}

/** The task page (a panel over the board at 1280, a page at 360) and the board in dark mode. */
async function shootTaskPageAndDarkBoard(browser: Browser, harness: Harness, viewport: (typeof viewports)[number], taskId: string): Promise<void> {
  const shot = { animations: 'disabled', caret: 'hide' } as const;
  const suffix = String(viewport.width);
  const context = await newContext(browser, harness, viewport, true);
  try {
    const page = await context.newPage();
    await page.goto(`/tasks/${taskId}`);
    await page.getByRole('region', { name: 'Activity' }).getByRole('listitem').first().waitFor();
    await page.getByRole('region', { name: /^Comments/ }).getByRole('article').nth(1).waitFor();
    await page.screenshot({ ...shot, path: join(outDir, `task-${suffix}.png`) });

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/tasks');
    await page.getByRole('article').first().waitFor();
    await page.screenshot({ ...shot, path: join(outDir, `board-dark-${suffix}.png`) });
  } finally {
    await context.close();
  }
}

/** A team writing in its own language: its board, seeded through the API by an account that speaks it. */
const LANGUAGE_TEAMS = [
  {
    language: 'ar',
    person: { email: 'layla@example.test', fullName: 'ليلى حداد', password: 'layla-haddad-bayt-al-hikma' },
    board: 'فريق المنتج',
    labels: [['خطأ', 'red'], ['تصميم', 'purple'], ['توثيق', 'teal']],
    doing: 'قيد التنفيذ',
    tasks: ['إصلاح تصدير CSV', 'تصميم قائمة الترحيب', 'كتابة دليل الخطافات', 'مراجعة حدود العمل', 'ترجمة رسالة التسجيل', 'تحسين الوضع الداكن', 'قياس أول عرض', 'تخطيط الإصدار القادم', 'فحص استعادة النسخ الاحتياطي'],
  },
  {
    language: 'ja',
    person: { email: 'haruki@example.test', fullName: '佐藤 陽菜', password: 'sato-hina-sakura-2026' },
    board: 'プロダクトチーム',
    labels: [['不具合', 'red'], ['デザイン', 'purple'], ['ドキュメント', 'teal']],
    doing: '進行中',
    tasks: ['CSV出力の文字化けを直す', 'オンボーディングのチェックリストを設計', 'Webhookガイドを書く', 'WIP制限の文言を見直す', '登録メールを翻訳する', 'ダークテーマを調整', '初回表示を計測', '次のリリースを計画', 'バックアップの復元を確認'],
  },
] as const;

/** Each language team's board, shot at `viewport` in the team's language: `board-<language>-<width>.png`. */
async function shootLanguageBoards(browser: Browser, harness: Harness, viewport: (typeof viewports)[number], boards: Map<string, string>): Promise<void> {
  for (const team of LANGUAGE_TEAMS) {
    const context = await browser.newContext({ baseURL: harness.baseURL, viewport, deviceScaleFactor: 1, locale: team.language, timezoneId: 'Europe/Berlin', reducedMotion: 'reduce' });
    try {
      const login = await context.request.post('/api/users/login', { data: { email: team.person.email, password: team.person.password } });
      if (login.status() !== 200) throw new Error(`sign-in failed: HTTP ${login.status()}`);
      await context.addInitScript(`localStorage.setItem(${JSON.stringify(LOGGED_IN_FLAG)}, 'true')`);
      const page = await context.newPage();
      await page.goto(`/boards/${boards.get(team.language) ?? ''}?view=board`);
      await page.getByRole('article').first().waitFor();
      await page.screenshot({ animations: 'disabled', caret: 'hide', path: join(outDir, `board-${team.language}-${viewport.width}.png`) });
    } finally {
      await context.close();
    }
  }
}

/** Each language team's account (in its language) and board; the boards' ids by language. */
async function seedLanguageBoards(browser: Browser, harness: Harness): Promise<Map<string, string>> {
  const boards = new Map<string, string>();
  const db = openDb(harness.dbPath);
  try {
    for (const team of LANGUAGE_TEAMS) await insertUser(db, team.person);
  } finally {
    db.close();
  }
  for (const team of LANGUAGE_TEAMS) {
    const context = await browser.newContext({ baseURL: harness.baseURL });
    const call = async (method: 'post' | 'patch' | 'get', path: string, data?: object) => {
      const res = await context.request[method](path, data === undefined ? {} : { data });
      if (res.status() >= 300) throw new Error(`${method.toUpperCase()} ${path}: HTTP ${res.status()} ${await res.text()}`);
      return (await res.json()) as { data: { board?: { _id: string }; columns?: { _id: string }[]; column?: { _id: string }; label?: { _id: string } } };
    };
    try {
      const login = await context.request.post('/api/users/login', { data: { email: team.person.email, password: team.person.password } });
      if (login.status() !== 200) throw new Error(`sign-in failed: HTTP ${login.status()}`);
      await call('patch', '/api/users/me/settings', { language: team.language });
      const boardId = (await call('post', '/api/boards', { name: team.board, description: '' })).data.board?._id ?? '';
      const [todo, done] = (await call('get', `/api/boards/${boardId}/columns`)).data.columns ?? [];
      const doing = (await call('post', `/api/boards/${boardId}/columns`, { name: team.doing, category: 'todo', wipLimit: 4, afterId: todo?._id ?? null })).data.column?._id ?? '';
      const labels: string[] = [];
      for (const [name, color] of team.labels) labels.push((await call('post', `/api/boards/${boardId}/labels`, { name, color })).data.label?._id ?? '');
      const priorities = ['urgent', 'high', 'normal', 'low'] as const;
      for (const [i, taskTitle] of team.tasks.entries()) {
        await call('post', '/api/tasks', {
          taskTitle,
          assignee: team.person.email,
          priority: priorities[i % priorities.length],
          deadline: i % 3 === 2 ? undefined : hours(5 + i * 20).toISOString(),
          labelIds: [labels[i % labels.length] ?? ''],
          boardId,
          columnId: i < 2 ? done?._id : i < 5 ? doing : todo?._id,
        });
      }
      boards.set(team.language, boardId);
    } finally {
      await context.close();
    }
  }
  return boards;
}

async function main(): Promise<void> {
  if (!existsSync(chromePath)) throw new Error(`Chromium not found at ${chromePath} (set CHROME_PATH).`);
  buildWeb();
  mkdirSync(outDir, { recursive: true });
  const harness = await startHarness('screenshots');
  const browser = await chromium.launch({ executablePath: chromePath, args: chromeArgs });
  try {
    // `npm run screenshots -- languages`: only the boards in Arabic and Japanese.
    if (process.argv.includes('languages')) {
      const boards = await seedLanguageBoards(browser, harness);
      for (const viewport of viewports) await shootLanguageBoards(browser, harness, viewport, boards);
      say(`[screenshots] the boards in Arabic and Japanese at 360 and 1280 written to ${outDir}`);
      return;
    }
    await seed(harness);
    const languageBoards = await seedLanguageBoards(browser, harness);
    const taskId = await seedTaskPage(browser, harness);
    const boardId = await seedSharedBoard(browser, harness);
    const workflowId = await seedWorkflowBoard(browser, harness);
    for (const viewport of viewports) {
      await shootWorkflowBoard(browser, harness, viewport, workflowId);
      await shootViews(browser, harness, viewport, workflowId);
      await shootTaskPageAndDarkBoard(browser, harness, viewport, taskId);
      await shootSharedBoard(browser, harness, viewport, boardId);
      await shootInbox(browser, harness, viewport);
      await shootLanguageBoards(browser, harness, viewport, languageBoards);
      const suffix = String(viewport.width);
      const shot = { animations: 'disabled', caret: 'hide' } as const;

      const signedIn = await newContext(browser, harness, viewport, true);
      const page = await signedIn.newPage();
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      // On a phone the greeting lives in the account menu.
      if (viewport.width >= 640) await page.getByText(`Welcome, ${owner.fullName}`).first().waitFor();
      await page.screenshot({ ...shot, path: join(outDir, `landing-${suffix}.png`) });
      await page.goto('/tasks');
      await page.getByRole('article').first().waitFor();
      await page.screenshot({ ...shot, path: join(outDir, `board-${suffix}.png`) });
      await page.goto('/account');
      await page.getByRole('switch').first().waitFor();
      await page.screenshot({ ...shot, fullPage: true, path: join(outDir, `account-${suffix}.png`) });
      await signedIn.close();

      const signedOut = await newContext(browser, harness, viewport, false);
      const out = await signedOut.newPage();
      await out.goto('/login');
      await out.getByLabel('E-mail', { exact: true }).waitFor();
      await out.screenshot({ ...shot, path: join(outDir, `login-${suffix}.png`) });
      await out.goto('/sign-up');
      await out.getByLabel('Full name', { exact: true }).fill('Grace Hopper');
      // One code request per address per minute: a different address per viewport.
      await out.getByLabel('E-mail', { exact: true }).fill(`grace-${suffix}@example.test`);
      await out.getByRole('button', { name: /^Send OTP/ }).click();
      await out.getByLabel('One-time code', { exact: true }).waitFor();
      await out.screenshot({ ...shot, path: join(outDir, `sign-up-${suffix}.png`) });
      await signedOut.close();
      say(`[screenshots] ${viewport.width}×${viewport.height}: landing, login, sign-up step 2, board, board (dark), task page, account, shared board with the switcher, board settings, the notifications panel (light and dark), the workflow board (detailed and compact) and its table, calendar, timeline and lanes by priority (light and dark)`);
    }
  } finally {
    await browser.close();
    await harness.stop();
  }
  say(`[screenshots] written to ${outDir}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`[screenshots] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { BoardRole, Priority } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import { placedAtTop } from '../repositories/columns-repository.ts';
import { hashPassword } from '../services/passwords.ts';
import { codeFrom } from './mail-catcher.ts';
import type { TestApp } from './helpers.ts';
import { withConventions } from '../i18n/account-language.ts';

export interface TestUser {
  id: string;
  email: string;
  fullName: string;
  password: string;
}

let sequence = 0;
const unique = () => `${++sequence}-${randomBytes(3).toString('hex')}`;

export const uniqueEmail = (prefix = 'user') => `${prefix}-${unique()}@example.test`;

let ipSequence = 0;
/** A fresh client address, so per-IP limits of one test do not touch the next. */
export function nextIp(): string {
  ipSequence += 1;
  return `10.${(ipSequence >> 16) & 255}.${(ipSequence >> 8) & 255}.${ipSequence & 255}`;
}

const hashes = new Map<string, Promise<string>>();
/** argon2 is slow on purpose; the same password is hashed once per test file. */
const cachedHash = (password: string) => {
  let hash = hashes.get(password);
  if (hash === undefined) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
};

/** A signed-up user written straight through the repository (unique e-mail and name). */
export async function createUser(t: TestApp, overrides: Partial<Omit<TestUser, 'id'>> = {}): Promise<TestUser> {
  const id = unique();
  const user = {
    email: `user-${id}@example.test`,
    fullName: `Tess Tester ${id}`,
    password: 'correct horse battery staple',
    ...overrides,
  };
  const now = t.clock.now().toISOString();
  const userId = newId();
  await t.app.usersRepository.insert({
    id: userId,
    email: user.email.toLowerCase(),
    fullName: user.fullName,
    passwordHash: await cachedHash(user.password),
    createdAt: now,
    updatedAt: now,
    ...withConventions('en'),
  });
  return { id: userId, ...user, email: user.email.toLowerCase() };
}

/** Signs in through the API and returns the `taskwise_session=…` cookie. */
/** Sets the signed-in account's language through the settings API. */
export async function setAccountLanguage(t: TestApp, cookie: string, language: string): Promise<void> {
  const res = await t.request('PATCH', '/api/users/me/settings', { cookie, body: { language } });
  expect(res.status, res.body).toBe(200);
}

export async function signIn(t: TestApp, user: Pick<TestUser, 'email' | 'password'>): Promise<string> {
  const res = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } });
  expect(res.status, res.body).toBe(200);
  expect(res.sessionCookie).toBeDefined();
  return res.sessionCookie ?? '';
}

/** A user and their session cookie. */
export async function createSignedInUser(t: TestApp, overrides: Partial<Omit<TestUser, 'id'>> = {}) {
  const user = await createUser(t, overrides);
  return { user, cookie: await signIn(t, user) };
}

export interface TaskInput {
  taskTitle?: string;
  assignee?: string;
  workTitle?: string | null;
  deadline?: string | null;
  startAt?: string | null;
  priority?: Priority;
  description?: string;
  /** The board to create it on (default: the creator's personal board). */
  boardId?: string;
  /** Labels of that board. */
  labelIds?: string[];
  /** A column of that board (default: its first todo column). */
  columnId?: string;
}

export interface BoardMemberInput {
  /** A user (an active member) or a bare address (an invited one while no account has it). */
  who: Pick<TestUser, 'id' | 'email'> | string;
  role: BoardRole;
}

/**
 * A shared board written straight into the tables (no events, no mail): `admin` is its first
 * active admin, `members` the others. For tests of what membership allows; the boards API has
 * its own tests.
 */
export async function insertBoard(
  t: TestApp,
  admin: Pick<TestUser, 'id' | 'email' | 'fullName'>,
  members: BoardMemberInput[] = [],
  name = `Board ${unique()}`,
): Promise<{ id: string; name: string }> {
  const id = newId();
  const now = t.clock.now().toISOString();
  await t.app.db.insertInto('boards').values({ id, name, description: '', personal: 0, createdAt: now, updatedAt: now }).execute();
  const rows = [{ who: admin, role: 'admin' as const }, ...members].map(({ who, role }, i) => ({
    boardId: id,
    email: typeof who === 'string' ? who.toLowerCase() : who.email,
    userId: typeof who === 'string' ? null : who.id,
    role,
    // Added one ms apart, in the order given: the first is the longest-standing member.
    addedAt: new Date(t.clock.now().getTime() + i).toISOString(),
    addedByName: admin.fullName,
    addedByEmail: admin.email,
  }));
  await t.app.db.insertInto('boardMembers').values(rows).execute();
  return { id, name };
}

/** Creates a task through the API as the cookie's user; unique title, assigned to a fresh address by default. */
export async function createTask(t: TestApp, cookie: string, overrides: TaskInput = {}): Promise<Task> {
  const body = { taskTitle: `Task ${unique()}`, assignee: uniqueEmail('assignee'), ...overrides };
  const res = await t.request('POST', '/api/tasks', { body, cookie });
  expect(res.status, res.body).toBe(201);
  return res.json.data.task;
}

/**
 * `count` tasks created by `creator` for themselves, written straight into the table in bulk
 * (no events, activity or mail): for tests that need many rows fast. Task `i` is created `i`
 * ms after the clock's now, so newest first is the reverse of the returned ids.
 */
export async function insertTasks(t: TestApp, creator: Pick<TestUser, 'id' | 'email'>, count: number): Promise<string[]> {
  const start = t.clock.now().getTime();
  const common = { workTitle: '', description: '', deadline: null, priority: 'normal', status: 'todo', version: 1 } as const;
  const rows = Array.from({ length: count }, (_, i) => {
    const at = new Date(start + i).toISOString();
    return { ...common, id: newId(), taskTitle: `Bulk task ${i}`, assigneeEmail: creator.email, createdBy: creator.id, boardId: creator.id, createdAt: at, updatedAt: at };
  });
  // Chunks keep each statement under SQLite's limit of bound parameters.
  const placed = await placedAtTop(t.app.db, rows);
  for (let i = 0; i < rows.length; i += 500) await t.app.db.insertInto('tasks').values(placed.slice(i, i + 500)).execute();
  return rows.map((row) => row.id);
}

/** Walks the real sign-up flow: request a code, read it from the caught mail, register. */
export async function registerThroughApi(
  t: TestApp,
  overrides: Partial<Omit<TestUser, 'id'>> = {},
): Promise<Omit<TestUser, 'id'>> {
  const user = { email: uniqueEmail('signup'), fullName: `New Person ${unique()}`, password: 'a long enough password', ...overrides };
  const otp = await t.request('POST', '/api/otps', { body: { email: user.email }, ip: nextIp() });
  expect(otp.status, otp.body).toBe(201);
  const code = codeFrom(t.mail.last(user.email));
  const res = await t.request('POST', '/api/users/register', { body: { ...user, otp: code } });
  expect(res.status, res.body).toBe(201);
  return user;
}

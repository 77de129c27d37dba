import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#shared/error-codes.ts';
import { createSignedInUser, createTask, nextIp, uniqueEmail } from '../factories.ts';
import { useTestApp, type Response } from '../helpers.ts';
import { codeFrom } from '../mail-catcher.ts';
import { sessionHashes, snapshot } from './db-snapshot.ts';

/**
 * Hostile input as property tests (ASVS 5.1.x, 5.3.4, 5.5.3, 13.2.2): arbitrary JSON, huge and
 * empty strings, unicode (RTL, emoji, NUL, lone surrogates), wrong types, extra fields and the
 * prototype-pollution keys, sent to every body, query, path parameter and cookie of every route.
 * For every request:
 * - never a 5xx, always a JSend envelope whose message leaks no internals;
 * - a 4xx stores nothing (accounts, tasks, codes and sessions compared before and after);
 * - a 2xx stores exactly what it answered (the row read back equals the answer);
 * - Object.prototype and Array.prototype are never polluted.
 * FUZZ_RUNS sets the runs per property (default 60); every property runs its full count (no
 * time limit that would stop it early and pass), with a generous hang guard per test.
 */
const t = useTestApp();
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const FC = { numRuns: RUNS } as const;
const HANG_GUARD = { timeout: 180_000 };

// ---------------------------------------------------------------------------------------------
// Arbitraries. Bodies are built as JSON *text*, so keys such as __proto__ and duplicate keys
// reach the server exactly as an attacker would send them.

const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n\r ',
  '\u0000',
  'abc\u0000def',
  '\ud800',
  'lone \udfff surrogate',
  '\udc00\ud800',
  '\u202eevil.exe\u202dtxt',
  '\u200b\u200c\u200d\ufeff',
  'مهمة بالعربية',
  '👩‍👩‍👧‍👦🚀💥',
  'ﷺ𒐫﷽',
  'a@example.com\r\nBcc: victim@evil.test',
  'x\r\nSet-Cookie: taskwise_session=planted',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1' --",
  "'); DROP TABLE tasks; --",
  '${7*7}{{7*7}}#{7*7}',
  '../../../../etc/passwd',
  '%00%0d%0a',
  '\\',
  '"',
  'null',
  '__proto__',
  'constructor',
  '2031-03-10T09:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '0000-01-01T00:00:00Z',
  '2031-02-30T10:00',
  'urgent',
  'done',
] as const;

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const controlChar = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), loneSurrogate, controlChar), maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x', 'é', '𝕏', ' ', '\u0000'), fc.integer({ min: 90, max: 6000 })).map(([c, n]) => c.repeat(n)) },
);
const validEmail = fc.constantFrom('someone@example.test', ' MiXeD@Example.Test ', 'o\'brien+tag@sub.example.test');

const scalarJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileText.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.boolean()).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom('null', '1e400', '-0', '123456789012345678901234567890') },
);
const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const extraKey = fc.oneof(
  fc.constantFrom(...POLLUTION_KEYS, '_id', 'assignor', 'assignorEmail', 'createdBy', 'createdAt', 'updatedAt', 'isAdmin', 'toString', 'hasOwnProperty', 'valueOf', 'role'),
  fc.string({ maxLength: 12 }),
);
const objectOf = (entries: fc.Arbitrary<[string, string][]>) =>
  entries.map((list) => `{${list.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
const anyJson: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarJson,
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    objectOf(fc.array(fc.tuple(extraKey, tie('value')), { maxLength: 3 })),
  ),
})).value;
/** Payloads that try to reach Object.prototype through the parser or a merge. */
const pollutionJson = fc.constantFrom(
  '{"polluted":"yes"}',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
);

/** A field value: often valid (to reach deep code), else hostile text, a wrong type, or pollution. */
const fieldValue = (valid: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 3, arbitrary: valid.map((v) => JSON.stringify(v)) },
    { weight: 4, arbitrary: scalarJson },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: pollutionJson },
  );

/** A JSON object body: each known field present or not, plus extra and duplicate keys. */
function bodyOf(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const known = Object.entries(fields).map(([name, valid]) =>
    fc.option(fieldValue(valid).map((v): [string, string] => [name, v]), { freq: 4, nil: undefined }),
  );
  const extras = fc.array(fc.tuple(extraKey, fc.oneof(scalarJson, pollutionJson)), { maxLength: 3 });
  const object = fc.tuple(fc.tuple(...known), extras, fc.boolean()).map(([entries, extra, extrasFirst]) => {
    const present = entries.filter((e): e is [string, string] => e !== undefined);
    return objectOf(fc.constant(extrasFirst ? [...extra, ...present] : [...present, ...extra]));
  });
  return fc.oneof({ weight: 9, arbitrary: object.chain((a) => a) }, { weight: 1, arbitrary: anyJson });
}

const validTitle = fc.constantFrom('Write the report', '  padded title  ', 'Ünïcödé tïtlé ✓');
const validDeadline = fc.constantFrom('2031-03-11T12:00:00.000Z', '2031-04-01T08:30', '', '2035-12-31T23:59:59+02:00');
const taskBody = bodyOf({
  taskTitle: validTitle,
  assignee: validEmail,
  workTitle: fc.constantFrom('Project X', ''),
  deadline: validDeadline,
  priority: fc.constantFrom('low', 'normal', 'high', 'urgent'),
  status: fc.constantFrom('todo', 'done'),
});

/** Percent-encodes the UTF-8 bytes (lone surrogates become U+FFFD, as a browser would send). */
const pct = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const queryPart = fc.oneof(hostileText.map(pct), fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '+', '&', '=', '[]', '%5B%5D'));
const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom('priority', 'status', 'limit', 'cursor', ...POLLUTION_KEYS, 'priority[]', '__proto__[polluted]', 'constructor[prototype][polluted]'), queryPart), fc.oneof(fc.constantFrom('high', 'done', '1', '500', '501', '0', '-1', '1.5', '', 'yes'), queryPart)), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

// ---------------------------------------------------------------------------------------------
// The invariants.

const INTERNALS = /\b(?:select|insert|update|delete)\b.*\b(?:from|into|set)\b|sqlite|postgres|kysely|ajv|stack|\bat \S+ \(|node_modules|TypeError|RangeError|SyntaxError/i;
const baselineObjectProto = Object.getOwnPropertyNames(Object.prototype).sort();
const baselineArrayProto = Object.getOwnPropertyNames(Array.prototype).sort();

function expectNoPollution() {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(baselineObjectProto);
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(baselineArrayProto);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/** Sends one request and checks every invariant that does not depend on the route. */
async function sendHostile(
  label: string,
  send: () => Promise<Response>,
): Promise<Response> {
  const before = await snapshot(t.app.db);
  const sessionsBefore = await sessionHashes(t.app.db);
  const res = await send();
  const context = `${label} → ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.status, context).toBeGreaterThanOrEqual(200);
  expect(res.status, context).toBeLessThan(500);
  if (res.status !== 204) {
    expect(res.headers['content-type'], context).toMatch(/^application\/json; charset=utf-8$/);
    expect(['success', 'fail'], context).toContain((res.json as Response['json'] | undefined)?.status);
  }
  if (res.status >= 400) {
    expect(res.json.status, context).toBe('fail');
    expect(ERROR_CODES, context).toContain(res.json.code);
    expect(typeof res.json.message, context).toBe('string');
    expect(res.json.message, context).not.toMatch(INTERNALS);
    expect(await snapshot(t.app.db), `${context}: a refused request changed stored data`).toEqual(before);
    const sessionsAfter = await sessionHashes(t.app.db);
    for (const hash of sessionsAfter) expect(sessionsBefore.has(hash), `${context}: a refused request started a session`).toBe(true);
  }
  expectNoPollution();
  return res;
}

/** Always tried first (fast-check `examples`): inputs that once broke the server. */
const KNOWN_HARD_TASK_BODIES: [string][] = [
  [JSON.stringify({ taskTitle: 'NUL \u0000 inside', assignee: 'someone@example.test' })],
  [JSON.stringify({ taskTitle: 'Lone surrogate', assignee: 'someone@example.test', workTitle: '\ud800' })],
  [JSON.stringify({ taskTitle: 'x\udfffy title', assignee: 'someone@example.test' })],
];

const show = (s: string) => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…(${s.length} chars)` : s);

/** A 2xx task answer must be exactly what was stored. */
async function expectStoredAsAnswered(task: Record<string, unknown>, context: string) {
  const row = await t.app.db.selectFrom('tasks').selectAll().where('id', '=', String(task._id)).executeTakeFirstOrThrow();
  expect(
    { taskTitle: row.taskTitle, workTitle: row.workTitle, assignee: row.assigneeEmail, deadline: row.deadline, priority: row.priority, status: row.status },
    `${context}: the answer differs from the stored row`,
  ).toEqual({ taskTitle: task.taskTitle, workTitle: task.workTitle, assignee: task.assignee, deadline: task.deadline, priority: task.priority, status: task.status });
}

// ---------------------------------------------------------------------------------------------

describe('hostile bodies (fast-check)', HANG_GUARD, () => {
  it('POST /api/otps', async () => {
    const body = bodyOf({ email: validEmail });
    await fc.assert(
      fc.asyncProperty(body, async (json) => {
        await sendHostile(`POST /api/otps ${show(json)}`, () => t.request('POST', '/api/otps', { body: json, ip: nextIp() }));
      }),
      FC,
    );
  });

  it('POST /api/users/register (with a real mailed code for a fresh address in a quarter of the runs)', async () => {
    const body = bodyOf({
      email: validEmail,
      fullName: fc.constantFrom('Ada Lovelace', '  Grace  '),
      otp: fc.constantFrom('123456', ' 000000 '),
      password: fc.constantFrom('a long enough password', 'пароль-пароль', '🔑🔑🔑🔑🔑🔑🔑🔑'),
    });
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), fc.boolean(), async (json, withCode, withEmail) => {
        let text = json;
        if (withCode && withEmail && safeParseObject(json) !== undefined) {
          // Put a fresh address and its real code into the hostile body, so the insert is reached.
          const email = uniqueEmail('fuzz');
          expect((await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() })).status).toBe(201);
          const code = codeFrom(t.mail.last(email));
          text = `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"email":${JSON.stringify(email)},"otp":${JSON.stringify(code)}}`;
        }
        const res = await sendHostile(`POST /api/users/register ${show(text)}`, () => t.request('POST', '/api/users/register', { body: text }));
        if (res.status === 201) {
          const sent = JSON.parse(text) as { email: unknown; fullName: unknown };
          if (typeof sent.email === 'string' && typeof sent.fullName === 'string') {
            const row = await t.app.db.selectFrom('users').select('fullName').where('email', '=', sent.email.trim().toLowerCase()).executeTakeFirstOrThrow();
            expect(row.fullName, `${show(text)}: the stored name differs from the accepted one`).toBe(sent.fullName.trim());
          }
        }
      }),
      {
        ...FC,
        examples: [
          [JSON.stringify({ fullName: 'Nul \u0000 Name', password: 'a long enough password' }), true, true],
          [JSON.stringify({ fullName: 'Lone \ud800 Name', password: 'a long enough password' }), true, true],
        ],
      },
    );
  });

  it('POST /api/users/login', async () => {
    const { user } = await createSignedInUser(t);
    const body = bodyOf({ email: fc.constant(user.email), password: fc.constantFrom(user.password, 'wrong password') });
    await fc.assert(
      fc.asyncProperty(body, async (json) => {
        await sendHostile(`POST /api/users/login ${show(json)}`, () => t.request('POST', '/api/users/login', { body: json, ip: nextIp() }));
      }),
      FC,
    );
  });

  it('POST /api/tasks', async () => {
    const { cookie } = await createSignedInUser(t);
    await fc.assert(
      fc.asyncProperty(taskBody, async (json) => {
        const res = await sendHostile(`POST /api/tasks ${show(json)}`, () => t.request('POST', '/api/tasks', { body: json, cookie }));
        if (res.status === 201) await expectStoredAsAnswered(res.json.data.task, show(json));
      }),
      { ...FC, examples: KNOWN_HARD_TASK_BODIES },
    );
  });

  it('PATCH /api/tasks/:id', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    await fc.assert(
      fc.asyncProperty(taskBody, async (json) => {
        const res = await sendHostile(`PATCH ${show(json)}`, () => t.request('PATCH', `/api/tasks/${task._id}`, { body: json, cookie }));
        if (res.status === 200) await expectStoredAsAnswered(res.json.data.task, show(json));
      }),
      { ...FC, examples: KNOWN_HARD_TASK_BODIES },
    );
  });

  it('raw bodies: truncated, non-JSON and deeply nested text as application/json', async () => {
    const { cookie } = await createSignedInUser(t);
    const raw = fc.oneof(
      anyJson.chain((json) => fc.nat({ max: Math.max(0, json.length - 1) }).map((n) => json.slice(0, n))),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom('{', '}', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":undefined}', '\ufeff{}', '{"a":"\\u00"}', '[1,2', 'true false'),
      fc.nat({ max: 2600 }).map((n) => `${'{"a":'.repeat(n)}{"__proto__":{"polluted":1}}${'}'.repeat(n)}`),
      fc.nat({ max: 8000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
    );
    await fc.assert(
      fc.asyncProperty(raw, fc.constantFrom('/api/tasks', '/api/otps', '/api/users/login', '/api/users/register'), async (text, url) => {
        await sendHostile(`POST ${url} ${show(text)}`, () => t.request('POST', url, { body: text, cookie, ip: nextIp() }));
      }),
      FC,
    );
  });
});

function safeParseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

describe('hostile queries, path parameters, content types and cookies (fast-check)', HANG_GUARD, () => {
  it('GET /api/tasks and /api/tasks/counts with arbitrary query strings', async () => {
    const { cookie } = await createSignedInUser(t);
    await createTask(t, cookie);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/tasks', '/api/tasks/counts'), queryString, async (path, query) => {
        await sendHostile(`GET ${path}?${query}`, () => t.request('GET', `${path}?${query}`, { cookie }));
      }),
      FC,
    );
  });

  it('PATCH and DELETE /api/tasks/:id with arbitrary ids', async () => {
    const { cookie } = await createSignedInUser(t);
    await createTask(t, cookie);
    const id = fc.oneof(hostileText.filter((s) => s !== '').map(pct), fc.constantFrom('%', '%zz', '..', '..%2f..%2fusers', '%2e%2e', 'a'.repeat(65), '1 OR 1=1', '*'));
    const examples: ['PATCH' | 'DELETE', string][] = [['PATCH', 'a%00b'], ['DELETE', '%00'], ['PATCH', '%'], ['DELETE', '%E0%A4%A']];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('PATCH' as const, 'DELETE' as const), id, async (method, raw) => {
        const res = await sendHostile(`${method} /api/tasks/${raw}`, () =>
          t.request(method, `/api/tasks/${raw}`, { cookie, ...(method === 'PATCH' ? { body: { status: 'done' } } : {}) }),
        );
        expect([400, 404], `${method} ${raw}`).toContain(res.status);
      }),
      { ...FC, examples },
    );
  });

  it('POST /api/tasks with arbitrary content types: only JSON is read; form, text and multipart bodies are 415', async () => {
    const { cookie } = await createSignedInUser(t);
    const body = JSON.stringify({ taskTitle: 'Sent as something else', assignee: 'someone@example.test' });
    const simple = fc
      .tuple(
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'),
        fc.constantFrom('', '; charset=utf-8', ';application/json', '; boundary=x', ' ; foo=application/json'),
        fc.boolean(),
      )
      .map(([type, params, upper]) => ({ type: `${upper ? type.toUpperCase() : type}${params}`, simple: true }));
    const other = fc
      .oneof(
        fc.constantFrom('application/jsonx', 'application/json-patch+json', 'application/xml', 'text/json', 'json', '*/*', 'application/', ';'),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
      )
      .map((type) => ({ type, simple: false }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(simple, other), async ({ type, simple: isSimple }) => {
        const res = await sendHostile(`POST /api/tasks as ${show(type)}`, () =>
          t.request('POST', '/api/tasks', { body, cookie, headers: { 'content-type': type } }),
        );
        // Whatever a cross-site form can send without a CORS preflight is refused.
        if (isSimple) expect(res.status, type).toBe(415);
      }),
      FC,
    );
  });

  it('GET /api/tasks with arbitrary cookie headers: 401 or the real owner, never an error', async () => {
    const { cookie } = await createSignedInUser(t);
    const value = fc.oneof(
      hostileText.map((s) => s.replace(/[^\x20-\x7e]/g, '')),
      fc.string({ unit: fc.constantFrom('A', 'z', '0', '_', '-', '='), minLength: 40, maxLength: 46 }),
      fc.constant(cookie.split('=')[1]!.slice(0, 42)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('taskwise_session', 'TASKWISE_SESSION', 'taskwise_session ', 'other', '__proto__'), value), { minLength: 1, maxLength: 3 }), async (pairs) => {
        const header = pairs.map(([k, v]) => `${k}=${v}`).join('; ');
        const res = await sendHostile(`cookie ${show(header)}`, () => t.request('GET', '/api/tasks', { headers: { cookie: header } }));
        expect(res.status, header).toBe(401);
      }),
      FC,
    );
  });
});

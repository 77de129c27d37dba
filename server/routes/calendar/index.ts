import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import ical, { ICalEventStatus } from 'ical-generator';
import { Type } from 'typebox';
import type { Priority } from '#shared/constants.ts';
import { CalendarFeedEnvelope } from '#shared/schemas/integrations.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { text, type Translatable } from '#shared/i18n.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { ID_RE } from '../../db/ids.ts';
import { AppError } from '../../errors.ts';
import { displayName, PRIORITY_LABEL } from '../../i18n/names.ts';
import { storedLanguage, translate } from '../../i18n/translate.ts';
import { currentUser } from '../../plugins/session.ts';
import type { Viewer } from '../../repositories/task-visibility.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';

/** The file part of a feed URL: 32 random bytes, base64url (43 characters), and `.ics`. */
const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;
/** Tasks read per page while writing a feed. */
const FEED_PAGE = 2000;
/** A task's event lasts this long from its deadline (a deadline is an instant, the event a reminder of it). */
const EVENT_MINUTES = 30;
/** The feed cache's bounds: documents kept, and their characters in all (about 2 bytes each). */
const CACHE_MAX_ENTRIES = 200;
const CACHE_MAX_CHARS = 32 * 1024 * 1024;
/** Feed stamps remembered (the oldest goes first): about 100 bytes each. */
const STAMPS_MAX = 20_000;
/** RFC 5545 PRIORITY: 1 is the highest, 9 the lowest, 5 the middle. */
const ICAL_PRIORITY: Record<Priority, number> = { urgent: 1, high: 3, normal: 5, low: 9 };

const newSecret = () => randomBytes(32).toString('base64url');
const feedNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.routeNotFound);

/**
 * The calendar feed: a person's open tasks with a deadline as an iCalendar document (RFC 5545,
 * written by ical-generator), at a secret URL that calendar apps poll without a session. The
 * tasks are the ones the task list shows them (repositories/task-list-queries.ts, open, by
 * deadline); an ETag from a cheap stamp of that set answers an unchanged feed with 304 before
 * any task is read (decision 088), and the stamp itself is read again only after an event
 * (decision 103). The secret is in the path, so the request log writes the path
 * with it replaced (app.ts `loggedUrl`).
 */
const calendar: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock, config, calendarRepository: feeds, tasksRepository: tasks } = fastify;
  const urlOf = (secret: string) => `${config.appOrigin}/api/calendar/${secret}.ics`;
  const host = new URL(config.appOrigin).host;

  fastify.get(
    '/users/me/calendar',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['calendar'],
        summary: 'My secret calendar feed URL (made on the first call)',
        description: 'Anyone who has the URL reads the feed without signing in; `POST /api/users/me/calendar/rotate` replaces it.',
        security: sessionSecurity,
        response: { 200: serializable(CalendarFeedEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const secret = await feeds.secretOf(currentUser(request).id, newSecret(), clock.now().toISOString());
      return { status: 'success', data: { url: urlOf(secret) } } as const;
    },
  );

  fastify.post(
    '/users/me/calendar/rotate',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['calendar'],
        summary: 'Replace my calendar feed URL; the old one answers 404 at once',
        description: 'For a URL that was shared too widely: calendar apps subscribed to the old one stop getting updates.',
        security: sessionSecurity,
        response: { 200: serializable(CalendarFeedEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const secret = newSecret();
      await feeds.rotate(currentUser(request).id, secret, clock.now().toISOString());
      return { status: 'success', data: { url: urlOf(secret) } } as const;
    },
  );

  /**
   * Feeds written lately, by ETag (which names the secret, the board and the stamp of the tasks,
   * so an entry is only ever one person's current feed): a calendar app that polls without
   * If-None-Match gets the same document without the tasks being read and written again. A
   * per-process cache only: another instance writes its own, and a change makes a new ETag.
   */
  const bodies = new Map<string, string>();
  let cachedChars = 0;
  const remember = (etag: string, text: string) => {
    if (text.length > CACHE_MAX_CHARS / 4) return;
    bodies.set(etag, text);
    cachedChars += text.length;
    for (const [key, value] of bodies) {
      if (bodies.size <= CACHE_MAX_ENTRIES && cachedChars <= CACHE_MAX_CHARS) break;
      bodies.delete(key);
      cachedChars -= value.length;
    }
  };

  /** Every open task with a deadline the viewer sees (of `board`), by deadline: pages of the task list until the undated ones start. */
  async function datedOpenTasks(viewer: Viewer, board: string | undefined): Promise<Task[]> {
    const out: Task[] = [];
    for (let after: { createdAt: string; id: string; deadline: string | null } | undefined; ; ) {
      const page = await tasks.list(viewer, { view: 'all', board, status: 'todo', sort: 'deadline', after, limit: FEED_PAGE });
      for (const task of page) {
        if (task.deadline === null) return out;
        out.push(task);
      }
      const last = page.at(-1);
      if (page.length < FEED_PAGE || last === undefined) return out;
      after = { createdAt: last.createdAt, id: last._id, deadline: last.deadline };
    }
  }

  /**
   * The feed stamp, read again only when an event was committed since it was last read for the
   * same feed: every change a feed can show (a task's write, a membership, a board's name, an
   * import) appends to the event log, whose newest id never goes down. So the poll of an
   * unchanged feed costs one index read, not the aggregate over its tasks (decision 103). The
   * newest id is read BEFORE the stamp: an event committed in between makes the next poll read
   * the stamp again, never keep a stale one. A cache of this instance, checked against the
   * database on every poll, so it holds with any number of instances.
   */
  const stamps = new Map<string, { latest: number; stamp: string }>();
  const stampOf = async (viewer: Viewer, board: string | undefined): Promise<string> => {
    const key = `${viewer.userId} ${board ?? ''}`;
    const latest = await fastify.events.latestId();
    const known = stamps.get(key);
    if (known?.latest === latest) return known.stamp;
    const stamp = await tasks.feedStamp(viewer, board);
    stamps.delete(key);
    if (stamps.size >= STAMPS_MAX) stamps.delete(stamps.keys().next().value ?? '');
    stamps.set(key, { latest, stamp });
    return stamp;
  };

  fastify.get(
    '/calendar/:file',
    {
      schema: {
        tags: ['calendar'],
        summary: 'A calendar feed (iCalendar, no session: the URL is the secret)',
        description:
          'One VEVENT per open task with a deadline that the feed\'s owner can see; `board=<id>` narrows it to one board ' +
          '(a board they are not on: an empty calendar). Answers carry an ETag; `If-None-Match` with it answers 304. ' +
          'An unknown or replaced URL: 404.',
        params: Type.Object({ file: Type.String() }),
        querystring: Type.Object({ board: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: Type.String({ description: 'text/calendar' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const secret = FEED_FILE.exec(request.params.file)?.[1];
      if (secret === undefined) throw feedNotFound();
      const owner = await feeds.ownerOf(secret);
      if (owner === undefined) throw feedNotFound();
      const viewer: Viewer = { userId: owner.userId, email: owner.email };
      const asked = request.query.board;
      // A board they are not an active member of (or no such board): an empty calendar.
      const board = asked === undefined ? undefined : ID_RE.test(asked) && (await tasks.boardRole(asked, viewer)) !== undefined ? asked : null;
      const stamp = board === null ? 'none' : await stampOf(viewer, board);
      // Written in the owner's language: a change of language is a new document.
      const language = storedLanguage(owner.language);
      const etag = `"${createHash('sha256').update(JSON.stringify([secret, owner.createdAt, owner.email, asked ?? null, config.appOrigin, stamp, language])).digest('base64url')}"`;
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      const match = request.headers['if-none-match'];
      if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag) === true) return reply.code(304).send('');

      const cached = bodies.get(etag);
      if (cached !== undefined) {
        // Most recently used last.
        bodies.delete(etag);
        bodies.set(etag, cached);
        return reply.type('text/calendar; charset=utf-8').send(cached);
      }
      const list = board === null ? [] : await datedOpenTasks(viewer, board);
      const names = await feeds.boardNames([...new Set(list.map((task) => task.boardId))]);
      const feed = ical({ name: 'Taskwise', prodId: { company: 'Taskwise', product: 'Taskwise', language: language.toUpperCase() } });
      const t = (words: Translatable) => translate(language, words);
      // "Label: value", as the mails' task details write it.
      const line = (label: Translatable, value: string) => `${t(label)}: ${value}`;
      for (const task of list) {
        // A task with a start earlier than its deadline lasts from the one to the other.
        const deadline = new Date(task.deadline ?? 0);
        const startAt = task.startAt === null ? undefined : new Date(task.startAt);
        const start = startAt !== undefined && startAt < deadline ? startAt : deadline;
        const boardName = displayName(language, names.get(task.boardId) ?? '');
        const lines = [line(text('Board'), boardName), line(text('Assignee'), task.assignee), line(text('Priority'), t(PRIORITY_LABEL[task.priority]))];
        if (task.workTitle !== '') lines.push(line(text('Work'), task.workTitle));
        if (task.description !== '') lines.push('', task.description);
        feed.createEvent({
          id: `${task._id}@${host}`,
          start,
          end: start < deadline ? deadline : new Date(start.getTime() + EVENT_MINUTES * 60_000),
          summary: task.taskTitle,
          description: lines.join('\n'),
          url: `${config.appOrigin}/tasks/${task._id}`,
          priority: ICAL_PRIORITY[task.priority],
          status: ICalEventStatus.CONFIRMED,
          created: new Date(task.createdAt),
          lastModified: new Date(task.updatedAt),
          // Without a METHOD, DTSTAMP is the task's last change (RFC 5545 3.8.7.2), so the
          // document is the same for the same ETag and can be answered from the cache.
          stamp: new Date(task.updatedAt),
          sequence: task.version,
        });
      }
      const document = feed.toString();
      remember(etag, document);
      return reply.type('text/calendar; charset=utf-8').send(document);
    },
  );
  return Promise.resolve();
};

export default calendar;

import type { Duplex, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import Assembler from 'stream-json/assembler.js';
import { parser } from 'stream-json';
import { COLUMN_POLICY } from '#shared/column-messages.ts';
import { LIMITS, type LabelColor } from '#shared/constants.ts';
import { message, text, type Translatable } from '#shared/i18n.ts';
import { IMPORT_MESSAGES } from '#shared/import-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { AppError, type FieldError } from '../errors.ts';

/*
 * Reading a Trello board export (the JSON of Trello's "Print and export → Export as JSON") as a
 * stream: the body is tokenized by stream-json and only one element of `cards`, `lists`,
 * `labels`, `checklists`, `actions` or `members` is assembled at a time, then cut down to the
 * few fields the import uses. Everything else (prefs, badges, attachments, custom fields…) is
 * skipped token by token and never held. The result is the import's plan: what to write, with
 * every text already trimmed and cut to the API's limits (decision 091).
 */

/** How the import names a Trello label with no name: after its color, as Trello's palette calls it. */
const TRELLO_COLOR_NAMES: Record<string, string> = {
  green: 'Green',
  yellow: 'Yellow',
  orange: 'Orange',
  red: 'Red',
  purple: 'Purple',
  blue: 'Blue',
  sky: 'Sky',
  lime: 'Lime',
  pink: 'Pink',
  black: 'Black',
};

/** Trello's label colors (and their `_dark`/`_light` shades) onto our fixed palette; none or unknown: gray. */
const PALETTE: Record<string, LabelColor> = {
  green: 'green',
  yellow: 'yellow',
  orange: 'orange',
  red: 'red',
  purple: 'purple',
  blue: 'blue',
  sky: 'teal',
  lime: 'green',
  pink: 'pink',
  black: 'gray',
};

export function labelColorOf(trelloColor: string | null): LabelColor {
  if (trelloColor === null) return 'gray';
  // Our palette has an indigo and Trello a dark blue: the one shade that gets its own color.
  if (trelloColor === 'blue_dark') return 'indigo';
  return PALETTE[trelloColor.replace(/_(dark|light)$/, '')] ?? 'gray';
}

/** An unnamed label's name: its Trello color ("Green", "Sky dark"), or "No color". */
export function labelNameOf(trelloColor: string | null): string {
  if (trelloColor === null) return 'No color';
  const match = /^([a-z]+)(?:_(dark|light))?$/.exec(trelloColor);
  const base = match?.[1] === undefined ? undefined : TRELLO_COLOR_NAMES[match[1]];
  if (base === undefined) return trelloColor;
  return match?.[2] === undefined ? base : `${base} ${match[2]}`;
}

/**
 * A list whose cards count as done: its name holds one of the words done, complete, completed,
 * finished (any case, as a whole word, so "Done ✅" and "Finished work" count but "Undone",
 * "Incomplete" and "Not done" do not).
 */
export function isDoneListName(name: string): boolean {
  return /(?<![\p{L}\p{N}])(?<!\bnot\s)(done|complete|completed|finished)(?![\p{L}\p{N}])/iu.test(name);
}

/** Text as stored: NUL characters removed, lone surrogates replaced (U+FFFD), trimmed. */
const clean = (raw: string) => raw.replaceAll('\u0000', '').toWellFormed().trim();

/**
 * Cuts text to `max` UTF-16 units (the unit LIMITS counts), ending with "…" when cut; never
 * splits a surrogate pair.
 */
export function cut(value: string, max: number): { text: string; cut: boolean } {
  if (value.length <= max) return { text: value, cut: false };
  let end = max - 1;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: `${value.slice(0, end).trimEnd()}…`, cut: true };
}

export interface PlannedLabel {
  key: string;
  name: string;
  color: LabelColor;
}

export interface PlannedTask {
  taskTitle: string;
  workTitle: string;
  description: string;
  deadline: string | null;
  status: 'todo' | 'done';
  /** Its column: an index into ImportPlan.columns (of the task's status's category). */
  column: number;
  /** Keys (lower-cased names) of PlannedLabel. */
  labels: string[];
  checklist: { text: string; done: boolean }[];
  /** Bodies, oldest first. */
  comments: string[];
}

/** A column of the imported board. */
export interface PlannedColumn {
  name: string;
  category: 'todo' | 'done';
}

export interface ImportPlan {
  board: { name: string; description: string };
  /** The board's columns in order: Trello's open lists, and "Tasks To Do" / "Completed" when no list has that category. */
  columns: PlannedColumn[];
  labels: PlannedLabel[];
  tasks: PlannedTask[];
  /** What did not fit: texts cut to the limits, labels past the per-board or per-task limit, checklist items past the per-task limit. */
  notes: { shortened: number; labelsDropped: number; taskLabelsDropped: number; checklistItemsDropped: number };
}

interface ListRow {
  name: string;
  closed: boolean;
  pos: number;
  order: number;
}
interface CardRow {
  id: string;
  name: string;
  desc: string;
  due: string | null;
  dueComplete: boolean;
  idList: string;
  idLabels: string[];
  pos: number;
  order: number;
}
interface LabelRow {
  id: string;
  name: string;
  color: string | null;
}
interface ChecklistRow {
  idCard: string;
  pos: number;
  order: number;
  items: { text: string; done: boolean; pos: number; order: number }[];
}
interface CommentRow {
  cardId: string;
  date: number;
  order: number;
  text: string;
  memberId: string | null;
  fullName: string | null;
}

const COLLECTIONS = ['lists', 'cards', 'labels', 'checklists', 'actions', 'members'] as const;
type Collection = (typeof COLLECTIONS)[number];
const isCollection = (key: string): key is Collection => (COLLECTIONS as readonly string[]).includes(key);
/** At most this many field errors are listed; the rest are left out. */
const MAX_ERRORS = 20;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** 400: the body is JSON but not a Trello board export. */
export const notAnExport = (errors: FieldError[]) =>
  new AppError(400, 'VALIDATION_FAILED', IMPORT_MESSAGES.notATrelloExport, errors);

/** 413 past the import's body limit. */
export const tooLarge = () => new AppError(413, 'PAYLOAD_TOO_LARGE', IMPORT_MESSAGES.tooLarge);

/**
 * Reads the export from `body` (at most `maxBytes`) and plans the import. Throws AppError:
 * 400 MALFORMED_JSON (not JSON), 400 VALIDATION_FAILED (not a Trello export, or a field of the
 * wrong type: `errors` lists up to 20 as `cards[3].name`), 413 past `maxBytes`.
 */
export async function readTrelloExport(body: Readable, maxBytes: number): Promise<ImportPlan> {
  const errors: FieldError[] = [];
  /** Records a field error (false, so a check can `return fail(…)`); stops reading at the 20th. */
  const fail = (field: string, problem: Translatable): false => {
    errors.push({ field, message: problem });
    if (errors.length >= MAX_ERRORS) throw notAnExport(errors);
    return false;
  };

  const scalars: { name?: unknown; desc?: unknown } = {};
  const seen = new Set<Collection>();
  const lists = new Map<string, ListRow>();
  const cards: CardRow[] = [];
  const labels: LabelRow[] = [];
  const checklists = new Map<string, ChecklistRow>();
  const comments: CommentRow[] = [];
  const memberNames = new Map<string, string>();
  const shortened = { count: 0 };

  const element: Record<Collection, (value: Json, at: string, index: number) => unknown> = {
    lists(value, at, index) {
      const { id, name, closed, pos } = value;
      if (typeof id !== 'string') return fail(`${at}.id`, text('A list needs an id (text).'));
      if (typeof name !== 'string') return fail(`${at}.name`, text('A list needs a name (text).'));
      if (closed !== undefined && typeof closed !== 'boolean') return fail(`${at}.closed`, text('closed must be true or false.'));
      if (pos !== undefined && typeof pos !== 'number') return fail(`${at}.pos`, text('pos must be a number.'));
      const listName = cut(clean(name), LIMITS.workTitleMax);
      if (listName.cut && closed !== true) shortened.count += 1;
      lists.set(id, { name: listName.text, closed: closed === true, pos: typeof pos === 'number' ? pos : 0, order: index });
    },
    cards(value, at, index) {
      const { id, name, idList, closed, desc, due, dueComplete, idLabels, pos } = value;
      if (typeof id !== 'string') return fail(`${at}.id`, text('A card needs an id (text).'));
      if (typeof name !== 'string') return fail(`${at}.name`, text('A card needs a name (text).'));
      if (typeof idList !== 'string') return fail(`${at}.idList`, text('A card needs its list (idList, text).'));
      if (closed !== undefined && typeof closed !== 'boolean') return fail(`${at}.closed`, text('closed must be true or false.'));
      if (desc !== undefined && desc !== null && typeof desc !== 'string') return fail(`${at}.desc`, text('desc must be text.'));
      if (due !== undefined && due !== null && (typeof due !== 'string' || Number.isNaN(Date.parse(due)))) {
        return fail(`${at}.due`, text('due must be a date and time (ISO 8601) or null.'));
      }
      if (dueComplete !== undefined && typeof dueComplete !== 'boolean') return fail(`${at}.dueComplete`, text('dueComplete must be true or false.'));
      if (idLabels !== undefined && !(Array.isArray(idLabels) && idLabels.every((l) => typeof l === 'string'))) {
        return fail(`${at}.idLabels`, text('idLabels must be a list of label ids.'));
      }
      if (pos !== undefined && typeof pos !== 'number') return fail(`${at}.pos`, text('pos must be a number.'));
      // Archived cards are skipped: nothing of them is kept.
      if (closed === true) return;
      const description = cut(clean(typeof desc === 'string' ? desc : ''), LIMITS.descriptionMax);
      if (description.cut) shortened.count += 1;
      cards.push({
        id,
        name: clean(name),
        desc: description.text,
        due: typeof due === 'string' ? new Date(due).toISOString() : null,
        dueComplete: dueComplete === true,
        idList,
        idLabels: (idLabels) ?? [],
        pos: typeof pos === 'number' ? pos : 0,
        order: index,
      });
    },
    labels(value, at) {
      const { id, name, color } = value;
      if (typeof id !== 'string') return fail(`${at}.id`, text('A label needs an id (text).'));
      if (name !== undefined && name !== null && typeof name !== 'string') return fail(`${at}.name`, text('A label name must be text.'));
      if (color !== undefined && color !== null && typeof color !== 'string') return fail(`${at}.color`, text('A label color must be text or null.'));
      labels.push({ id, name: clean(typeof name === 'string' ? name : ''), color: typeof color === 'string' ? color : null });
    },
    checklists(value, at, index) {
      const { id, idCard, pos, checkItems } = value;
      if (typeof id !== 'string') return fail(`${at}.id`, text('A checklist needs an id (text).'));
      if (typeof idCard !== 'string') return fail(`${at}.idCard`, text('A checklist needs its card (idCard, text).'));
      if (pos !== undefined && typeof pos !== 'number') return fail(`${at}.pos`, text('pos must be a number.'));
      if (checkItems !== undefined && !Array.isArray(checkItems)) return fail(`${at}.checkItems`, text('checkItems must be a list.'));
      const items: ChecklistRow['items'] = [];
      for (const [i, item] of ((checkItems as unknown[] | undefined) ?? []).entries()) {
        const here = `${at}.checkItems[${i}]`;
        if (!isObject(item)) return fail(here, text('A checklist item must be an object.'));
        if (typeof item.name !== 'string') return fail(`${here}.name`, text('A checklist item needs a name (text).'));
        if (item.state !== 'complete' && item.state !== 'incomplete') return fail(`${here}.state`, text('state must be "complete" or "incomplete".'));
        if (item.pos !== undefined && typeof item.pos !== 'number') return fail(`${here}.pos`, text('pos must be a number.'));
        const itemText = cut(clean(item.name), LIMITS.checklistTextMax);
        if (itemText.text === '') continue;
        if (itemText.cut) shortened.count += 1;
        items.push({ text: itemText.text, done: item.state === 'complete', pos: typeof item.pos === 'number' ? item.pos : 0, order: i });
      }
      checklists.set(id, { idCard, pos: typeof pos === 'number' ? pos : 0, order: index, items });
    },
    actions(value, at, index) {
      if (value.type !== 'commentCard') return;
      const { data, date, memberCreator, idMemberCreator } = value;
      const card = isObject(data) ? data.card : undefined;
      if (!isObject(data) || typeof data.text !== 'string') return fail(`${at}.data.text`, text('A comment needs its text (data.text).'));
      if (!isObject(card) || typeof card.id !== 'string') return fail(`${at}.data.card.id`, text('A comment needs its card (data.card.id).'));
      if (typeof date !== 'string' || Number.isNaN(Date.parse(date))) return fail(`${at}.date`, text('A comment needs its date (ISO 8601).'));
      const fullName = isObject(memberCreator) && typeof memberCreator.fullName === 'string' ? clean(memberCreator.fullName) : null;
      const commentText = clean(data.text);
      if (commentText === '') return;
      comments.push({
        cardId: card.id,
        date: Date.parse(date),
        order: index,
        text: commentText,
        memberId: typeof idMemberCreator === 'string' ? idMemberCreator : null,
        fullName: fullName === '' ? null : fullName,
      });
    },
    members(value) {
      if (typeof value.id === 'string' && typeof value.fullName === 'string') memberNames.set(value.id, clean(value.fullName));
    },
  };

  const tokens = parser.asStream({ streamValues: false });
  const feeding = feed(body, tokens, maxBytes);

  // `depth`: how many objects and arrays are open. The export is one object (level 0); its keys
  // and values sit at level 1; the elements of its collections at level 2.
  let depth = 0;
  /** Whether the export's opening `{` was read (an object, so TypeScript sees the closure's writes). */
  const opened = { value: false };
  let key: string | null = null;
  let collection: Collection | null = null;
  let index = 0;
  let asm: Assembler | null = null;
  // Each token is handled as it is emitted (a `data` listener), not through an async iterator:
  // a 20 MB export is millions of tokens, and a promise per token would cost seconds.
  const onToken = (token: { name: string; value?: unknown }): void => {
    const opens = token.name === 'startObject' || token.name === 'startArray';
    const closes = token.name === 'endObject' || token.name === 'endArray';
    if (closes) depth -= 1;
    const level = depth;
    if (opens) depth += 1;

    if (asm !== null) {
      asm.consume(token as never);
      if (asm.done) {
        if (collection !== null) element[collection](asm.current as Json, `${collection}[${index}]`, index);
        index += 1;
        asm = null;
      }
      return;
    }
    if (level === 0) {
      if (!opened.value && token.name !== 'startObject') throw notAnExport([{ field: 'body', message: IMPORT_MESSAGES.notATrelloExport }]);
      opened.value = true;
      return;
    }
    if (level === 1) {
      if (token.name === 'keyValue') {
        key = token.value as string;
        return;
      }
      if (closes) {
        collection = null;
        return;
      }
      if (key === null) return;
      if (isCollection(key)) {
        seen.add(key);
        if (token.name === 'startArray') {
          collection = key;
          index = 0;
        } else fail(key, message('{key} must be a list.', { key }));
      } else if (key === 'name' || key === 'desc') {
        scalars[key] = opens ? {} : token.value;
      }
      return;
    }
    if (level === 2 && collection !== null && !closes) {
      if (token.name === 'startObject') {
        asm = new Assembler();
        asm.consume(token as never);
      } else {
        fail(`${collection}[${index}]`, text('Each element must be an object.'));
        index += 1;
      }
    }
  };
  try {
    tokens.on('data', (token: { name: string; value?: unknown }) => {
      try {
        onToken(token);
      } catch (error) {
        tokens.destroy(error as Error);
      }
    });
    await finished(tokens);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The parser's own errors: the text is not JSON.
    throw new AppError(400, 'MALFORMED_JSON', SERVER_MESSAGES.malformedJson);
  } finally {
    tokens.destroy();
    await feeding;
  }

  if (!opened.value) throw new AppError(400, 'MALFORMED_JSON', SERVER_MESSAGES.malformedJson);
  if (typeof scalars.name !== 'string') fail('name', text('A Trello export names its board (name, text).'));
  if (scalars.desc !== undefined && scalars.desc !== null && typeof scalars.desc !== 'string') fail('desc', text('desc must be text.'));
  if (!seen.has('lists')) fail('lists', text('A Trello export has its lists (lists).'));
  if (!seen.has('cards')) fail('cards', text('A Trello export has its cards (cards).'));
  for (const card of cards) {
    if (!lists.has(card.idList)) fail(`cards[${card.order}].idList`, text("The card's list is not in the export."));
  }
  if (errors.length > 0) throw notAnExport(errors);

  return plan({
    name: typeof scalars.name === 'string' ? scalars.name : '',
    desc: typeof scalars.desc === 'string' ? scalars.desc : '',
    lists,
    cards,
    labels,
    checklists,
    comments,
    memberNames,
    shortened: shortened.count,
  });
}

/**
 * Writes the body into the tokenizer, counting bytes: past `maxBytes` the tokenizer fails with
 * 413. The body is read without being destroyed when reading stops early (the answer still goes
 * out on its connection); what is left of it is discarded by the HTTP server.
 */
async function feed(body: Readable, tokens: Duplex, maxBytes: number): Promise<void> {
  let bytes = 0;
  try {
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
      if (tokens.destroyed) return;
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (bytes > maxBytes) throw tooLarge();
      if (!tokens.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            tokens.off('drain', done).off('close', done);
            resolve();
          };
          tokens.on('drain', done).on('close', done);
        });
      }
    }
    tokens.end();
  } catch (error) {
    tokens.destroy(error as Error);
  }
}

const byPos = <T extends { pos: number; order: number }>(a: T, b: T) => a.pos - b.pos || a.order - b.order;

function plan(read: {
  name: string;
  desc: string;
  lists: Map<string, ListRow>;
  cards: CardRow[];
  labels: LabelRow[];
  checklists: Map<string, ChecklistRow>;
  comments: CommentRow[];
  memberNames: Map<string, string>;
  shortened: number;
}): ImportPlan {
  let shortened = read.shortened;
  const fit = (text: string, max: number) => {
    const result = cut(text, max);
    if (result.cut) shortened += 1;
    return result.text;
  };
  const notes = { shortened: 0, labelsDropped: 0, taskLabelsDropped: 0, checklistItemsDropped: 0 };

  // Labels: named after their color when unnamed; one per name ignoring case (the first one's
  // color); the first 100 of the export's order.
  const labels: PlannedLabel[] = [];
  const keyOfLabel = new Map<string, string>();
  const keys = new Set<string>();
  const dropped = new Set<string>();
  for (const label of read.labels) {
    const name = fit(label.name === '' ? labelNameOf(label.color) : label.name, LIMITS.labelNameMax);
    const key = name.toLowerCase();
    if (!keys.has(key)) {
      if (labels.length >= LIMITS.labelsPerBoard) {
        dropped.add(key);
        continue;
      }
      keys.add(key);
      labels.push({ key, name, color: labelColorOf(label.color) });
    }
    keyOfLabel.set(label.id, key);
  }
  notes.labelsDropped = dropped.size;

  // Cards on open lists, in the board's order: list by list (Trello's pos), card by card.
  const listRank = new Map([...read.lists.entries()].sort(([, a], [, b]) => byPos(a, b)).map(([id], rank) => [id, rank]));
  const rankOf = (listId: string) => listRank.get(listId) ?? 0;
  const cards = read.cards
    .flatMap((card) => {
      const list = read.lists.get(card.idList);
      return list === undefined || list.closed ? [] : [{ card, list }];
    })
    .sort((a, b) => rankOf(a.card.idList) - rankOf(b.card.idList) || byPos(a.card, b.card));

  // Columns: the open lists in Trello's order (a list named like done/complete/finished is
  // `done`, the others `todo`), names made unique ignoring case; "Tasks To Do" first and
  // "Completed" last when no list has that category; at most COLUMN_POLICY.maxPerBoard in all
  // (the cards of lists past that go to the first column of their category).
  const openLists = [...read.lists.entries()].filter(([, list]) => !list.closed).sort(([, a], [, b]) => byPos(a, b));
  const categoryOf = (name: string): 'todo' | 'done' => (isDoneListName(name) ? 'done' : 'todo');
  const needsTodo = !openLists.some(([, list]) => categoryOf(list.name) === 'todo');
  const needsDone = !openLists.some(([, list]) => categoryOf(list.name) === 'done');
  const room = COLUMN_POLICY.maxPerBoard - (needsTodo ? 1 : 0) - (needsDone ? 1 : 0);
  // Past the limit, the first lists are kept, and the first list of a category none of them has.
  let keptLists = openLists.slice(0, room);
  for (const category of ['todo', 'done'] as const) {
    const first = openLists.find(([, list]) => categoryOf(list.name) === category);
    if (first !== undefined && !keptLists.includes(first)) keptLists = [...keptLists.slice(0, room - 1), first];
  }
  const columns: PlannedColumn[] = needsTodo ? [{ name: 'Tasks To Do', category: 'todo' }] : [];
  const columnOfList = new Map<string, number>();
  const taken = new Set(columns.map((c) => c.name.toLowerCase()));
  for (const [id, list] of keptLists) {
    const base = cut(clean(list.name) === '' ? 'Untitled list' : clean(list.name), COLUMN_POLICY.nameMax).text;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${cut(base, COLUMN_POLICY.nameMax - String(n).length - 1).text} ${n}`;
    taken.add(name.toLowerCase());
    columnOfList.set(id, columns.length);
    columns.push({ name, category: categoryOf(list.name) });
  }
  if (needsDone) columns.push({ name: taken.has('completed') ? 'Completed tasks' : 'Completed', category: 'done' });
  const firstOfCategory = (category: 'todo' | 'done') => columns.findIndex((c) => c.category === category);
  /** A card's column: its list's (when of its status's category), else the first column of its status. */
  const columnOfCard = (listId: string, status: 'todo' | 'done') => {
    const i = columnOfList.get(listId);
    return i !== undefined && columns[i]?.category === status ? i : firstOfCategory(status);
  };

  const checklistsOf = new Map<string, ChecklistRow[]>();
  for (const checklist of read.checklists.values()) {
    const found = checklistsOf.get(checklist.idCard);
    if (found === undefined) checklistsOf.set(checklist.idCard, [checklist]);
    else found.push(checklist);
  }
  const commentsOf = new Map<string, CommentRow[]>();
  for (const comment of read.comments) {
    const found = commentsOf.get(comment.cardId);
    if (found === undefined) commentsOf.set(comment.cardId, [comment]);
    else found.push(comment);
  }

  const tasks = cards.map(({ card, list }): PlannedTask => {
    const name = card.name === '' ? 'Untitled card' : card.name.length < LIMITS.taskTitleMin ? `Card ${card.name}` : card.name;
    const cardLabels = [...new Set(card.idLabels.map((id) => keyOfLabel.get(id)).filter((k): k is string => k !== undefined))];
    if (cardLabels.length > LIMITS.labelsPerTask) notes.taskLabelsDropped += cardLabels.length - LIMITS.labelsPerTask;
    const items = (checklistsOf.get(card.id) ?? []).sort(byPos).flatMap((c) => c.items.sort(byPos));
    if (items.length > LIMITS.checklistItemsPerTask) notes.checklistItemsDropped += items.length - LIMITS.checklistItemsPerTask;
    const comments = (commentsOf.get(card.id) ?? [])
      .sort((a, b) => a.date - b.date || a.order - b.order)
      .map((c) => {
        const author = c.fullName ?? (c.memberId === null ? undefined : read.memberNames.get(c.memberId)) ?? 'Unknown member';
        return fit(`${author}: ${c.text}`, LIMITS.commentMax);
      });
    const status = card.dueComplete || isDoneListName(list.name) ? 'done' : 'todo';
    return {
      taskTitle: fit(name, LIMITS.taskTitleMax),
      workTitle: list.name,
      description: card.desc,
      deadline: card.due,
      status,
      column: columnOfCard(card.idList, status),
      labels: cardLabels.slice(0, LIMITS.labelsPerTask),
      checklist: items.slice(0, LIMITS.checklistItemsPerTask).map((item) => ({ text: item.text, done: item.done })),
      comments,
    };
  });

  const boardName = fit(clean(read.name), LIMITS.boardNameMax);
  const description = fit(clean(read.desc), LIMITS.boardDescriptionMax);
  notes.shortened = shortened;
  return {
    board: { name: boardName === '' ? 'Trello board' : boardName, description },
    columns,
    labels,
    tasks,
    notes,
  };
}

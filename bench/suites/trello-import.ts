/**
 * Trello import: POST /api/boards/import/trello with a generated export of ≈20 MB (10,000 open
 * cards on 8 lists, 30 labels, a checklist of 5 items and 2 comments per card, plus archived
 * cards and the other actions a real export carries) into a real server, over HTTP. Measures the
 * time of the request (read as a stream, planned, written in one transaction) and the server's
 * resident memory growth during it (peak RSS sampled every 100 ms, minus RSS before). Targets:
 * ≤ 30 s on SQLite, ≤ 200 MB RSS growth. `--quick` imports 500 cards and never fails on a number.
 */
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchUser, dbLabel, makeTarget, migrate, newId, openSeeder, prng, type DbKind } from '../lib/db.ts';
import { int, loadAverage, mark, mb, table } from '../lib/env.ts';
import { sampleRss, startTaskwise, type RunningServer } from '../lib/servers.ts';

const TIME_TARGET_S = 30;
const RSS_TARGET_MB = 200;
const COLORS = ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black', null] as const;

/** A Trello export as Trello writes it (field names and the usual extras), `cards` open cards. */
export function trelloExport(cards: number): string {
  const random = prng(7);
  const hex = () => newId().replaceAll(/[^a-f0-9]/g, '0').padEnd(24, '0').slice(0, 24);
  const boardId = hex();
  const lists = Array.from({ length: 8 }, (_, i) => ({ id: hex(), name: i === 7 ? 'Done' : `Stage ${i + 1}`, closed: false, idBoard: boardId, pos: (i + 1) * 16384, subscribed: false, softLimit: null }));
  const labels = Array.from({ length: 30 }, (_, i) => ({ id: hex(), idBoard: boardId, name: i % 5 === 0 ? '' : `Label ${i}`, color: COLORS[i % COLORS.length] ?? null, uses: 0 }));
  const member = { id: hex(), fullName: 'Ada Lovelace', username: 'ada', initials: 'AL', avatarUrl: null };
  const text = (words: number) => Array.from({ length: words }, () => ['plan', 'ship', 'review', 'fix', 'write', 'test', 'design', 'ändern', 'über'][Math.floor(random() * 9)]).join(' ');
  const cardRows = [];
  const checklists = [];
  const actions = [];
  for (let i = 0; i < cards * 1.02; i += 1) {
    const id = hex();
    const checklistId = hex();
    const list = lists[i % lists.length]!;
    cardRows.push({
      id,
      badges: { attachments: 0, checkItems: 3, checkItemsChecked: 1, comments: i % 2 === 0 ? 2 : 0, description: true, due: null, dueComplete: false, votes: 0, subscribed: false, fogbugz: '' },
      // 2 % more are archived: skipped, as in a real export.
      closed: i >= cards,
      dueComplete: random() < 0.1,
      dateLastActivity: '2026-10-03T08:15:42.512Z',
      desc: text(3 + Math.floor(random() * 15)),
      due: random() < 0.5 ? new Date(Date.UTC(2027, 0, 1) + i * 3_600_000).toISOString() : null,
      email: null,
      idBoard: boardId,
      idChecklists: [checklistId],
      idList: list.id,
      idMembers: [member.id],
      idMembersVoted: [],
      idShort: i + 1,
      idLabels: [labels[i % 30]!.id, labels[(i * 7) % 30]!.id],
      labels: [],
      name: `Card ${i + 1}: ${text(6)}`,
      pos: 16384 * (i + 1),
      shortLink: id.slice(0, 8),
      shortUrl: `https://trello.com/c/${id.slice(0, 8)}`,
      attachments: [],
      customFieldItems: [],
    });
    checklists.push({
      id: checklistId,
      name: 'Checklist',
      idBoard: boardId,
      idCard: id,
      pos: 16384,
      checkItems: Array.from({ length: 3 }, (_, k) => ({ id: hex(), name: `Step ${k + 1}: ${text(3)}`, pos: 16384 * (k + 1), state: k < 1 ? 'complete' : 'incomplete', idChecklist: checklistId, due: null })),
    });
    for (let k = 0; k < (i % 2 === 0 ? 2 : 0); k += 1) {
      actions.push({
        id: hex(),
        idMemberCreator: member.id,
        type: 'commentCard',
        date: new Date(Date.UTC(2026, 9, 1) + i * 60_000 + k).toISOString(),
        data: { text: text(10), card: { id, name: `Card ${i + 1}`, idShort: i + 1, shortLink: id.slice(0, 8) }, list: { id: list.id, name: list.name } },
        memberCreator: member,
      });
    }
    if (i % 5 === 0) actions.push({ id: hex(), idMemberCreator: member.id, type: 'updateCard', date: '2026-10-01T00:00:00.000Z', data: { card: { id }, old: { pos: 1 } }, memberCreator: member });
  }
  return JSON.stringify({
    id: boardId,
    name: 'Bench board',
    desc: 'A generated Trello export.',
    closed: false,
    prefs: { permissionLevel: 'private', background: 'blue' },
    labelNames: {},
    actions,
    cards: cardRows,
    labels,
    lists,
    members: [member],
    checklists,
    customFields: [],
  });
}

async function runDatabase(kind: DbKind, opts: BenchOptions): Promise<{ section: BenchSection; seconds: number; rssGrowth: number }> {
  const cards = opts.quick ? 500 : 10_000;
  const label = dbLabel(kind);
  const target = await makeTarget(kind, opts, 'trello');
  let server: RunningServer | undefined;
  try {
    migrate(target);
    const seeder = await openSeeder(target);
    const user = await benchUser(`trello-${kind}`);
    await seeder.insertUsers([user]);
    const [cookie] = await seeder.insertSessions([user]);
    await seeder.close();
    const body = Buffer.from(trelloExport(cards));
    server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `trello-${kind}` });
    const before = server.rss();
    const sampler = sampleRss(server.pid, 100);
    const t0 = performance.now();
    const res = await fetch(`${server.baseUrl}/api/boards/import/trello`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookie ?? '', origin: server.baseUrl },
      body,
    });
    const answer = (await res.json()) as { data?: { counts: Record<string, number> }; message?: string };
    const seconds = (performance.now() - t0) / 1000;
    const peak = sampler.stop();
    if (res.status !== 201) throw new Error(`import answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    const counts = answer.data?.counts ?? {};
    const rssGrowth = Math.max(0, peak - before);
    opts.log(`trello-import/${label}: ${mb(body.length)} MB, ${int(counts.tasks ?? 0)} tasks in ${seconds.toFixed(1)} s, RSS +${mb(rssGrowth)} MB`);
    const markdown = table(
      ['export', 'tasks', 'checklist items', 'comments', 'labels', 'time', 'RSS before', 'RSS peak', 'growth'],
      [[`${mb(body.length)} MB`, int(counts.tasks ?? 0), int(counts.checklistItems ?? 0), int(counts.comments ?? 0), int(counts.labels ?? 0), `${seconds.toFixed(1)} s`, `${mb(before)} MB`, `${mb(peak)} MB`, `${mb(rssGrowth)} MB`]],
    );
    return { section: { title: `Trello import, ${label}`, markdown }, seconds, rssGrowth };
  } finally {
    await server?.stop();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'trello-import',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const sections: BenchSection[] = [];
    const targets: TargetResult[] = [];
    for (const kind of kinds) {
      const { section, seconds, rssGrowth } = await runDatabase(kind, opts);
      sections.push(section);
      if (kind === 'sqlite') targets.push({ name: 'Trello import of ≈20 MB (10,000 cards), SQLite: time', target: `≤ ${TIME_TARGET_S} s`, figure: `${seconds.toFixed(1)} s`, met: opts.quick ? null : seconds <= TIME_TARGET_S });
      targets.push({
        name: `Trello import, ${dbLabel(kind)}: server RSS growth`,
        target: `≤ ${RSS_TARGET_MB} MB`,
        figure: `${mb(rssGrowth)} MB`,
        met: opts.quick ? null : rssGrowth <= RSS_TARGET_MB * 1024 * 1024,
      });
    }
    const last = sections.at(-1);
    if (last !== undefined) {
      last.markdown += `\n\nLoad average at the end: ${loadAverage()}. Targets: ${targets.map((t) => `${t.name} ${t.figure} (${t.target}: ${mark(t.met)})`).join('; ')}.`;
      last.targets = targets;
    }
    return sections;
  },
};

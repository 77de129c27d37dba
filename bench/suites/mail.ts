/**
 * Mail: the reminder scan and the outbox.
 * - Reminder scan at 1,000,000 tasks, 100,000 of them with a deadline in the next 24 hours:
 *   the idle scan (nothing due: what every instance runs every 20 s) and the catch-up scan that
 *   writes the "due soon" mails of all 100,000 (assignee and creator each).
 * - Outbox throughput: mails per second delivered to a local SMTP catcher (the real worker,
 *   pooled SMTP connections, leases recorded in the database).
 * In-process (`build()`), one app per database, the same code a server runs.
 */
import { build } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { startMailCatcher } from '../../server/test/mail-catcher.ts';
import type { BenchOptions, BenchSection, BenchSuite } from '../suite.ts';
import { dbLabel, makeTarget, migrate, newId, NO_LOGIN_HASH, openSeeder, type DbKind, type TaskSeed, type UserSeed } from '../lib/db.ts';
import { int, ms, table } from '../lib/env.ts';

const HOUR = 3_600_000;

function settings(quick: boolean) {
  return quick ? { tasks: 20_000, dueSoon: 500, mails: 200, idleRuns: 20 } : { tasks: 1_000_000, dueSoon: 100_000, mails: 5_000, idleRuns: 200 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function runDatabase(kind: DbKind, opts: BenchOptions): Promise<string[]> {
  const s = settings(opts.quick);
  const target = await makeTarget(kind, opts, 'mail');
  const catcher = await startMailCatcher();
  try {
    migrate(target);
    const seeder = await openSeeder(target);
    const users: UserSeed[] = Array.from({ length: 1000 }, (_, i) => ({ id: newId(), email: `mail${i}@bench.test`, fullName: `Mail ${i}`, passwordHash: NO_LOGIN_HASH }));
    await seeder.insertUsers(users);
    const now = Date.now();
    const created = new Date(now - 48 * HOUR).toISOString();
    const t0 = performance.now();
    await seeder.insertTasks(s.tasks, (i): TaskSeed => {
      const creator = users[i % users.length]!;
      const assignee = users[(i * 7 + 1) % users.length]!;
      // The first `dueSoon` tasks are due within 24 h; a third of the rest later, the others never.
      const deadline = i < s.dueSoon ? now + HOUR + (i % 22) * HOUR : i % 3 === 0 ? now + (30 + (i % 500)) * HOUR : null;
      return {
        id: newId(),
        workTitle: '',
        taskTitle: `Reminder bench ${i}`,
        assigneeEmail: assignee.email,
        createdBy: creator.id,
        boardId: creator.id,
        deadline: deadline === null ? null : new Date(deadline).toISOString(),
        priority: 'normal',
        status: i % 10 === 9 && i >= s.dueSoon ? 'done' : 'todo',
        description: '',
        createdAt: created,
        updatedAt: created,
      };
    });
    await seeder.analyze();
    await seeder.close();
    opts.log(`mail ${kind}: ${int(s.tasks)} tasks seeded in ${ms(performance.now() - t0)}`);

    const config = loadConfig({ DATABASE_URL: target.url, SMTP_URL: `smtp://127.0.0.1:${catcher.port}`, SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01', LOG_LEVEL: 'silent' }, opts.tmpDir);
    const app = await build({ config });
    const rows: string[] = [];
    try {
      // The schedule as task writes leave it: far ahead for later deadlines, none without one.
      await app.db
        .$extendTables<{ tasks: { nextReminderAt: string | null } }>()
        .updateTable('tasks')
        .set({ nextReminderAt: '2999-01-01T00:00:00.000Z' })
        .where('deadline', 'is not', null)
        .execute();
      const nowIso = new Date().toISOString();
      const idle: number[] = [];
      for (let i = 0; i < s.idleRuns; i++) {
        const start = performance.now();
        await app.outboxRepository.dueReminders(nowIso, 200);
        idle.push(performance.now() - start);
      }
      rows.push([dbLabel(kind), 'idle scan (nothing due), one query', ms(median(idle)), `${int(s.tasks)} tasks`].join('\u0000'));

      // Now the next 24 hours' tasks come due at once (as after a long outage).
      await app.db
        .$extendTables<{ tasks: { nextReminderAt: string | null } }>()
        .updateTable('tasks')
        .set({ nextReminderAt: created })
        .where('deadline', '<', new Date(now + 24 * HOUR).toISOString())
        .execute();
      const start = performance.now();
      let handled = await app.taskMail.scanReminders();
      while ((await app.outboxRepository.dueReminders(new Date().toISOString(), 1)).length > 0) {
        handled += await app.taskMail.scanReminders();
      }
      const scanMs = performance.now() - start;
      const written = (await app.db.selectFrom('outbox').select('id').where('kind', '=', 'due-soon').execute()).length;
      rows.push([dbLabel(kind), `catch-up scan of ${int(s.dueSoon)} due tasks`, ms(scanMs), `${int((s.dueSoon / scanMs) * 1000)} tasks/s, ${int(written)} mails written`].join('\u0000'));
      opts.log(`mail ${kind}: scan handled ${int(handled)} in ${ms(scanMs)}`);

      // Throughput is timed on `mails` new rows alone. The scan's 200,000 reminder rows are its
      // result, already counted; sending them all as well would take minutes and keep every mail
      // in the catcher's memory, so they are deleted unsent.
      await app.db.deleteFrom('outbox').where('kind', '=', 'due-soon').execute();
      await app.outbox.drain();
      const before = catcher.mails.length;
      await app.db.transaction().execute(async (trx) => {
        for (let i = 0; i < s.mails; i++) {
          await app.outbox.enqueue(trx, { kind: 'bench', to: `outbox${i}@bench.test`, subject: `Bench ${i}`, text: `Mail ${i}\n`, html: `<p>Mail ${i}</p>` });
        }
      });
      const sendStart = performance.now();
      await app.outbox.drain();
      const sendMs = performance.now() - sendStart;
      rows.push([dbLabel(kind), `outbox delivery of ${int(s.mails)} mails to a local SMTP catcher`, ms(sendMs), `${int(((catcher.mails.length - before) / sendMs) * 1000)} mails/s`].join('\u0000'));
    } finally {
      await app.close();
    }
    return rows;
  } finally {
    await catcher.close();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'mail',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    const s = settings(opts.quick);
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const rows: string[][] = [];
    for (const kind of kinds) for (const row of await runDatabase(kind, opts)) rows.push(row.split('\u0000'));
    return [
      {
        title: 'Mail: reminder scan and outbox throughput',
        markdown: [
          `${int(s.tasks)} tasks from 1,000 users, ${int(s.dueSoon)} of them due within 24 hours, a third of the rest later, 10 % done.`,
          'The idle scan is the query every instance runs every 20 s; it reads the partial index of open tasks with a reminder ahead, so it costs the same at any table size.',
          '',
          table(['database', 'what', 'time (median for the idle scan)', 'figure'], rows),
        ].join('\n'),
      },
    ];
  },
};

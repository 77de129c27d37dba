import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

export interface MailSettings {
  notifyAssigned: boolean;
  notifyReminders: boolean;
  notifyBoards: boolean;
  notifyMentions: boolean;
}

export const DEFAULT_MAIL_SETTINGS: MailSettings = { notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true };

const toSettings = (row: { notifyAssigned: number; notifyReminders: number; notifyBoards: number; notifyMentions: number }): MailSettings => ({
  notifyAssigned: row.notifyAssigned === 1,
  notifyReminders: row.notifyReminders === 1,
  notifyBoards: row.notifyBoards === 1,
  notifyMentions: row.notifyMentions === 1,
});

/** Per address (an assignee without an account can unsubscribe too); no row means the defaults. */
export function createMailSettingsRepository(db: Kysely<DB>) {
  return {
    async get(email: string, ex: Executor = db): Promise<MailSettings> {
      const row = await ex
        .selectFrom('mailSettings')
        .select(['notifyAssigned', 'notifyReminders', 'notifyBoards', 'notifyMentions'])
        .where('email', '=', email)
        .executeTakeFirst();
      if (row === undefined) return { ...DEFAULT_MAIL_SETTINGS };
      return toSettings(row);
    },

    /** The settings of many addresses at once (the reminder scan's batch). */
    async getMany(emails: readonly string[], ex: Executor = db): Promise<Map<string, MailSettings>> {
      const found = new Map<string, MailSettings>();
      if (emails.length === 0) return found;
      const rows = await ex.selectFrom('mailSettings').select(['email', 'notifyAssigned', 'notifyReminders', 'notifyBoards', 'notifyMentions']).where('email', 'in', emails).execute();
      for (const row of rows) found.set(row.email, toSettings(row));
      return found;
    },

    /** Which of these addresses have an account. */
    async withAccounts(emails: readonly string[], ex: Executor = db): Promise<Set<string>> {
      if (emails.length === 0) return new Set();
      const rows = await ex.selectFrom('users').select('email').where('email', 'in', emails).execute();
      return new Set(rows.map((r) => r.email));
    },

    /** Writes the given flags (others keep their value) and returns the result. */
    async update(email: string, changes: Partial<MailSettings>, now: string, ex: Executor = db): Promise<MailSettings> {
      const current = await this.get(email, ex);
      const next = { ...current, ...changes };
      const values = {
        notifyAssigned: next.notifyAssigned ? 1 : 0,
        notifyReminders: next.notifyReminders ? 1 : 0,
        notifyBoards: next.notifyBoards ? 1 : 0,
        notifyMentions: next.notifyMentions ? 1 : 0,
        updatedAt: now,
      };
      await ex
        .insertInto('mailSettings')
        .values({ email, ...values })
        .onConflict((oc) => oc.column('email').doUpdateSet(values))
        .execute();
      return next;
    },
  };
}

export type MailSettingsRepository = ReturnType<typeof createMailSettingsRepository>;

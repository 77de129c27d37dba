import { sql, type Kysely } from 'kysely';
import type { Label } from '#shared/schemas/labels.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

interface LabelRow {
  id: string;
  name: string;
  nameKey: string;
  color: Label['color'];
}

/**
 * Turns the label ids that task rows carry (`taskSelect`'s `labelIds`: comma-separated, or null)
 * into each task's labels, ordered by name — with ONE query for a whole page, and none when no
 * task of it has labels. Reading ids in the task's own statement and the labels once per page,
 * rather than a JSON array of label objects per task, keeps a page of cards with 10 labels each
 * close to a page without (bench/suites/boards.ts measures it): the database builds no JSON and
 * the server parses none; each label is read once however many cards carry it.
 */
export function createLabelReads(db: Kysely<DB>, dialect: Dialect) {
  // `ids`: a JSON array of the wanted ids (one parameter, one prepared statement for any count).
  const byIds = prepare<{ ids: string }, LabelRow>(
    db
      .selectFrom('labels')
      .select(['id', 'name', 'nameKey', 'color'])
      .where(
        'id',
        'in',
        dialect === 'postgres'
          ? sql<string>`(select jsonb_array_elements_text(cast(${slot('ids')} as jsonb)))`
          : sql<string>`(select value from json_each(${slot('ids')}))`,
      ),
  );

  return {
    /** The labels of each row's `labelIds` (in the rows' order). */
    async resolve(labelIds: readonly (string | null)[], ex: Executor = db): Promise<Label[][]> {
      const wanted = new Set<string>();
      const seen = new Set<string>();
      let previous: string | null = null;
      for (const ids of labelIds) {
        // Cards next to each other often carry the same labels: comparing with the last row's
        // ids is cheaper than hashing the text again (each row's text is a fresh string).
        if (ids === null || ids === previous || seen.has(ids)) continue;
        previous = ids;
        seen.add(ids);
        for (const id of ids.split(',')) wanted.add(id);
      }
      if (wanted.size === 0) return labelIds.map(() => []);
      const { rows } = await byIds.execute(ex, { ids: JSON.stringify([...wanted]) });
      // The page's labels sorted by name once; a task's labels are then ordered by that rank.
      rows.sort((a, b) => (a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : 0));
      // One Label object per label, shared by every task that carries it (the answer is only serialized).
      const found = new Map<string, { rank: number; label: Label }>(rows.map((row, rank) => [row.id, { rank, label: { _id: row.id, name: row.name, color: row.color } }]));
      // Cards of one board often carry the same labels: each set is resolved once per page, and
      // its array shared by the tasks that carry it (it is only serialized).
      const sets = new Map<string, Label[]>();
      let last: { ids: string; labels: Label[] } | undefined;
      return labelIds.map((ids) => {
        if (ids === null) return [];
        if (last?.ids === ids) return last.labels;
        let labels = sets.get(ids);
        if (labels === undefined) {
          const entries: { rank: number; label: Label }[] = [];
          for (const id of ids.split(',')) {
            const entry = found.get(id);
            // A label deleted between the two reads is simply gone from the task.
            if (entry !== undefined) entries.push(entry);
          }
          if (entries.length > 1) entries.sort((a, b) => a.rank - b.rank);
          labels = entries.map((entry) => entry.label);
          sets.set(ids, labels);
        }
        last = { ids, labels };
        return labels;
      });
    },
  };
}

export type LabelReads = ReturnType<typeof createLabelReads>;

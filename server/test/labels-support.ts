import type { Label } from '#shared/schemas/labels.ts';
import { newId } from '../db/ids.ts';
import { createSignedInUser, insertBoard } from './factories.ts';
import type { TestApp } from './helpers.ts';

/** A shared board with an admin, a member and a viewer, each signed in, and someone signed in who is not on it. */
export async function labelsTeam(t: TestApp) {
  const admin = await createSignedInUser(t);
  const member = await createSignedInUser(t);
  const viewer = await createSignedInUser(t);
  const outsider = await createSignedInUser(t);
  const board = await insertBoard(t, admin.user, [
    { who: member.user, role: 'member' },
    { who: viewer.user, role: 'viewer' },
  ]);
  return { admin, member, viewer, outsider, board };
}

/** Labels written straight into the board's table (no events), in the order given. */
export async function insertLabels(t: TestApp, boardId: string, ...names: string[]): Promise<Label[]> {
  const at = t.clock.now().toISOString();
  const rows = names.map((name) => ({ id: newId(), boardId, name, nameKey: name.toLowerCase(), color: 'blue' as const, createdAt: at, updatedAt: at }));
  if (rows.length > 0) await t.app.db.insertInto('labels').values(rows).execute();
  return rows.map((r) => ({ _id: r.id, name: r.name, color: r.color }));
}

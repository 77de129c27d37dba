import { describe, expect, it } from 'vitest';
import { createSignedInUser } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { planOf } from './query-plans.ts';
import { insertNotifications } from './notifications-support.ts';

/**
 * The bell asks for the unread count on every page, and the panel for a page of 20: both must
 * be reads of the notifications' indexes, whatever the size of the table, never a scan of it.
 * The plans are read for the repository's own compiled queries (see query-plans.ts).
 */
const t = useTestApp();

describe('the inbox reads', () => {
  it('count the unread and read a page through the notifications indexes, without sorting', async () => {
    const { user } = await createSignedInUser(t);
    await insertNotifications(t, user, 50);
    const queries = t.app.notificationsRepository.queries(user.id);

    const unread = await planOf(t, queries.unreadCount);
    expect(unread).toMatch(/notifications_user_unread_idx/);
    for (const page of [queries.firstPage, queries.unreadPage]) {
      const plan = await planOf(t, page);
      expect(plan).toMatch(/notifications_user_(created|unread)_idx/);
      expect(plan).not.toMatch(/Sort|TEMP B-TREE/i);
    }
  });
});

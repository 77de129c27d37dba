import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { attachmentUrl, type Attachment } from '#shared/schemas/attachments.ts';
import { applyAttachmentEvent } from './attachment-events.ts';
import { attachmentKeys } from './query-keys.ts';

const ADA = { fullName: 'Ada Lovelace', email: 'ada@example.com' };

const file = (id: string, createdAt: string): Attachment => ({
  _id: id,
  name: `${id}.pdf`,
  size: 10,
  type: 'application/pdf',
  url: attachmentUrl(id),
  by: ADA,
  createdAt,
});

describe('applying attachment events to a task’s cached files', () => {
  it('adds a file newest first, once, and removes a deleted one', () => {
    const client = new QueryClient();
    const key = attachmentKeys.list('t1');
    client.setQueryData<Attachment[]>(key, [file('a1', '2026-11-01T10:00:00.000Z')]);
    const ids = () => client.getQueryData<Attachment[]>(key)?.map((a) => a._id);

    expect(applyAttachmentEvent(client, 'attachment.created', { taskId: 't1', attachment: file('a2', '2026-11-02T10:00:00.000Z'), by: ADA })).toBe('t1');
    // The echo of this tab's own upload (already listed from the answer) does not show twice.
    applyAttachmentEvent(client, 'attachment.created', { taskId: 't1', attachment: file('a2', '2026-11-02T10:00:00.000Z'), by: ADA });
    expect(ids()).toEqual(['a2', 'a1']);

    applyAttachmentEvent(client, 'attachment.deleted', { taskId: 't1', attachment: { _id: 'a1' }, by: ADA });
    expect(ids()).toEqual(['a2']);
  });

  it('leaves tasks whose files are not loaded, and ignores what is not an attachment event', () => {
    const client = new QueryClient();
    expect(applyAttachmentEvent(client, 'attachment.created', { taskId: 't2', attachment: file('a1', '2026-11-01T10:00:00.000Z'), by: ADA })).toBeNull();
    expect(client.getQueryData(attachmentKeys.list('t2'))).toBeUndefined();
    client.setQueryData<Attachment[]>(attachmentKeys.list('t1'), []);
    expect(applyAttachmentEvent(client, 'attachment.created', { taskId: 't1', attachment: { _id: 'a1' }, by: ADA })).toBeNull();
    expect(applyAttachmentEvent(client, 'comment.created', { taskId: 't1', attachment: file('a1', '2026-11-01T10:00:00.000Z'), by: ADA })).toBeNull();
    expect(client.getQueryData(attachmentKeys.list('t1'))).toEqual([]);
  });
});

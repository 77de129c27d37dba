import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Comment } from '#shared/schemas/comments.ts';
import { applyCommentEvent, withComment } from './comment-events.ts';
import { commentKeys } from './get-comments.ts';

const ADA = { fullName: 'Ada Lovelace', email: 'ada@example.com' };

const comment = (id: string, body: string, updatedAt = '2026-11-01T10:00:00.000Z'): Comment => ({
  _id: id,
  taskId: 't1',
  body,
  author: ADA,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt,
  mentions: [],
});

describe('applying comment events to a task’s cached comments', () => {
  it('adds, edits and removes a comment on a task whose comments are shown', () => {
    const client = new QueryClient();
    const key = commentKeys.list('t1');
    client.setQueryData<Comment[]>(key, []);
    const bodies = () => client.getQueryData<Comment[]>(key)?.map((c) => c.body);

    expect(applyCommentEvent(client, 'comment.created', { taskId: 't1', comment: comment('c1', 'First'), by: ADA })).toBe('t1');
    // The echo of this tab's own comment (already written from the answer) does not show twice.
    applyCommentEvent(client, 'comment.created', { taskId: 't1', comment: comment('c1', 'First'), by: ADA });
    expect(bodies()).toEqual(['First']);

    applyCommentEvent(client, 'comment.updated', { taskId: 't1', comment: comment('c1', 'Second', '2026-11-01T10:05:00.000Z'), by: ADA });
    expect(bodies()).toEqual(['Second']);
    // A late copy older than the shown one changes nothing.
    applyCommentEvent(client, 'comment.updated', { taskId: 't1', comment: comment('c1', 'First'), by: ADA });
    expect(bodies()).toEqual(['Second']);

    applyCommentEvent(client, 'comment.deleted', { taskId: 't1', comment: { _id: 'c1' }, by: ADA });
    expect(bodies()).toEqual([]);
  });

  it('puts the event of a comment this page is still posting in its stand-in’s place, never beside it', () => {
    const client = new QueryClient();
    const key = commentKeys.list('t1');
    const standIn = { ...comment('pending-1', '  Mine  '), author: ADA };
    const other = { ...comment('pending-2', 'Mine'), author: { fullName: 'Grace Hopper', email: 'grace@example.com' } };
    client.setQueryData<Comment[]>(key, [comment('c0', 'Before'), standIn, other]);

    applyCommentEvent(client, 'comment.created', { taskId: 't1', comment: comment('c1', 'Mine'), by: ADA });
    expect(client.getQueryData<Comment[]>(key)?.map((c) => c._id)).toEqual(['c0', 'c1', 'pending-2']);
    // The answer to the post then finds its comment already there.
    expect(withComment(client.getQueryData<Comment[]>(key)!.filter((c) => c._id !== 'pending-1'), comment('c1', 'Mine')).map((c) => c._id)).toEqual([
      'c0',
      'c1',
      'pending-2',
    ]);
  });

  it('leaves tasks whose comments are not loaded, and ignores what is not a comment event', () => {
    const client = new QueryClient();
    expect(applyCommentEvent(client, 'comment.created', { taskId: 't2', comment: comment('c1', 'Hi'), by: ADA })).toBeNull();
    expect(client.getQueryData(commentKeys.list('t2'))).toBeUndefined();
    client.setQueryData<Comment[]>(commentKeys.list('t1'), []);
    expect(applyCommentEvent(client, 'comment.created', { taskId: 't1', comment: { _id: 'c1' }, by: ADA })).toBeNull();
    expect(applyCommentEvent(client, 'task.updated', { taskId: 't1', comment: comment('c1', 'Hi'), by: ADA })).toBeNull();
    expect(client.getQueryData(commentKeys.list('t1'))).toEqual([]);
  });
});

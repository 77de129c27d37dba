import { describe, expect, it } from 'vitest';
import type { PushPayload } from '#shared/schemas/notifications.ts';
import { clickTarget, DEFAULT_TARGET, FALLBACK_NOTIFICATION, notificationFromPush, pickWindow } from './push-message.ts';

const ORIGIN = 'https://tasks.example.test';
const payload = (over: Partial<Record<keyof PushPayload, unknown>> = {}) =>
  JSON.stringify({ title: 'Ada assigned you a task', body: 'Fix the hinges', url: '/tasks/t1', id: 'n1', ...over });

describe('notificationFromPush', () => {
  it('shows the payload the server sends: title, body, the id as tag, the url', () => {
    expect(notificationFromPush(payload())).toEqual({ title: 'Ada assigned you a task', body: 'Fix the hinges', tag: 'n1', url: '/tasks/t1' });
  });

  it('shows a fallback text for a message it cannot read', () => {
    const fallback = { ...FALLBACK_NOTIFICATION, tag: undefined, url: DEFAULT_TARGET };
    for (const data of [null, undefined, '', 'not json', '[1,2]', '"text"', '42', 'null', '{}', payload({ title: '  ' }), payload({ title: 7 })]) {
      expect(notificationFromPush(data), String(data)).toEqual(fallback);
    }
  });

  it('fills in what is missing or of the wrong type', () => {
    expect(notificationFromPush(JSON.stringify({ title: 'Hello' }))).toEqual({ title: 'Hello', body: '', tag: undefined, url: DEFAULT_TARGET });
    expect(notificationFromPush(payload({ body: 3, id: '' }))).toMatchObject({ body: '', tag: undefined });
  });

  it('keeps only a same-origin path as the url', () => {
    for (const url of ['https://evil.example/phish', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'tasks/t1', 5]) {
      expect(notificationFromPush(payload({ url })).url, String(url)).toBe(DEFAULT_TARGET);
    }
    expect(notificationFromPush(payload({ url: '/boards/b1?x=1#c' })).url).toBe('/boards/b1?x=1#c');
  });
});

describe('clickTarget', () => {
  it('resolves a path of the app against our origin', () => {
    expect(clickTarget({ url: '/tasks/t1' }, ORIGIN)).toBe(`${ORIGIN}/tasks/t1`);
    expect(clickTarget({ url: '/boards/b1' }, ORIGIN)).toBe(`${ORIGIN}/boards/b1`);
  });

  it('never leaves our origin: anything else opens the task list', () => {
    for (const data of [{ url: 'https://evil.example/' }, { url: '//evil.example' }, { url: '/%2e//evil.example' }, { url: 'data:text/html,x' }, { url: 1 }, {}, null, 'x', undefined]) {
      expect(clickTarget(data, ORIGIN), JSON.stringify(data)).toBe(`${ORIGIN}${DEFAULT_TARGET}`);
    }
  });
});

describe('pickWindow', () => {
  const win = (url: string, focused = false, visibilityState: DocumentVisibilityState = 'hidden') => ({ url, focused, visibilityState });

  it('prefers the focused window, then a visible one, then any of ours', () => {
    const hidden = win(`${ORIGIN}/tasks`);
    const visible = win(`${ORIGIN}/account`, false, 'visible');
    const focused = win(`${ORIGIN}/boards/b1`, true, 'visible');
    expect(pickWindow([hidden, visible, focused], ORIGIN)).toBe(focused);
    expect(pickWindow([hidden, visible], ORIGIN)).toBe(visible);
    expect(pickWindow([hidden], ORIGIN)).toBe(hidden);
  });

  it('ignores windows of other origins and has none to offer without ours', () => {
    expect(pickWindow([win('https://other.example/tasks', true, 'visible'), win('about:blank')], ORIGIN)).toBeUndefined();
    expect(pickWindow<ReturnType<typeof win>>([], ORIGIN)).toBeUndefined();
  });
});

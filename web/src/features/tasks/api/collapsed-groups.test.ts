import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { collapsedStorageKey, rememberCollapsed, rememberedCollapsed, useCollapsedGroups } from './collapsed-groups.ts';

describe('collapsed groups remembered by the device', () => {
  it('keeps them per board and per grouping field', () => {
    rememberCollapsed('team', 'priority', new Set(['urgent', 'low']));
    rememberCollapsed('', 'assignee', new Set(['amy@example.com']));
    expect([...rememberedCollapsed('team', 'priority')]).toEqual(['urgent', 'low']);
    expect(rememberedCollapsed('team', 'assignee').size).toBe(0);
    expect(rememberedCollapsed('other', 'priority').size).toBe(0);
    expect([...rememberedCollapsed('', 'assignee')]).toEqual(['amy@example.com']);
    expect(localStorage.getItem(collapsedStorageKey('', 'assignee'))).toBe('["amy@example.com"]');
    // Nothing collapsed: nothing stored.
    rememberCollapsed('team', 'priority', new Set());
    expect(localStorage.getItem(collapsedStorageKey('team', 'priority'))).toBeNull();
  });

  it('reads what it did not write, or refused storage, as nothing collapsed, and never throws', () => {
    localStorage.setItem(collapsedStorageKey('team', 'label'), '{"not":"a list"');
    expect(rememberedCollapsed('team', 'label').size).toBe(0);
    localStorage.setItem(collapsedStorageKey('team', 'label'), '["l-bug", 3, null]');
    expect([...rememberedCollapsed('team', 'label')]).toEqual(['l-bug']);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(rememberedCollapsed('team', 'label').size).toBe(0);
    expect(() => {
      rememberCollapsed('team', 'label', new Set(['l-docs']));
    }).not.toThrow();
  });

  it('the hook toggles, stores, and follows a change of board or field', () => {
    rememberCollapsed('team', 'assignee', new Set(['zoe@example.com']));
    const { result, rerender } = renderHook(({ board, group }: { board: string; group: 'priority' | 'assignee' }) => useCollapsedGroups(board, group), {
      initialProps: { board: 'team', group: 'priority' },
    });
    expect(result.current[0].size).toBe(0);
    act(() => {
      result.current[1]('urgent');
    });
    expect([...result.current[0]]).toEqual(['urgent']);
    expect([...rememberedCollapsed('team', 'priority')]).toEqual(['urgent']);

    rerender({ board: 'team', group: 'assignee' });
    expect([...result.current[0]]).toEqual(['zoe@example.com']);
    act(() => {
      result.current[1]('zoe@example.com');
    });
    expect(result.current[0].size).toBe(0);
    expect(rememberedCollapsed('team', 'assignee').size).toBe(0);

    rerender({ board: 'team', group: 'priority' });
    expect([...result.current[0]]).toEqual(['urgent']);
    act(() => {
      result.current[1]('urgent');
    });
    expect(result.current[0].size).toBe(0);
  });

  it('still collapses on screen when storage is refused', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    const { result } = renderHook(() => useCollapsedGroups('team', 'priority'));
    act(() => {
      result.current[1]('low');
    });
    expect([...result.current[0]]).toEqual(['low']);
  });
});

import { describe, expect, it } from 'vitest';
import { fromOldAddress, parseBoardFilter, withFilter } from './board-filter.ts';

const params = (query: string) => new URLSearchParams(query);

describe('the board filter in the page’s address', () => {
  it('keeps whose tasks in ?show=, and sends it to the API as view', () => {
    expect(parseBoardFilter(params('show=assigned-to-me')).view).toBe('assigned-to-me');
    expect(withFilter(params('priority=high'), { view: 'created-by-me' }).toString()).toBe('priority=high&show=created-by-me');
    expect(withFilter(params('show=created-by-me&q=x'), { view: 'all' }).toString()).toBe('q=x');
  });

  it('reads an old address’s ?view= when there is no ?show=, and rewrites it in place', () => {
    expect(parseBoardFilter(params('view=created-by-me')).view).toBe('created-by-me');
    expect(fromOldAddress(params('q=a&view=assigned-to-me&sort=deadline'))?.toString()).toBe('q=a&show=assigned-to-me&sort=deadline');
    expect(fromOldAddress(params('view=all&priority=low'))?.toString()).toBe('priority=low');
    // ?show= wins; the old key goes.
    expect(parseBoardFilter(params('show=assigned-to-me&view=created-by-me')).view).toBe('assigned-to-me');
    expect(fromOldAddress(params('show=assigned-to-me&view=created-by-me'))?.toString()).toBe('show=assigned-to-me');
  });

  it('leaves a ?view= that is not whose tasks (a board view) alone', () => {
    expect(parseBoardFilter(params('view=table')).view).toBe('all');
    expect(fromOldAddress(params('view=table'))).toBeNull();
    expect(fromOldAddress(params('show=created-by-me'))).toBeNull();
  });
});

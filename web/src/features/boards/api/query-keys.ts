/** One key tree: invalidating `boardKeys.all` refreshes the switcher and every open board's settings. */
export const boardKeys = {
  all: ['boards'] as const,
  list: () => [...boardKeys.all, 'list'] as const,
  /** One board with its members (the board's heading and its settings). */
  detail: (id: string) => [...boardKeys.all, 'detail', id] as const,
};

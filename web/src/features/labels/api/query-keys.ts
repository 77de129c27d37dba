/** One key tree: invalidating `labelKeys.all` refreshes every board's labels. */
export const labelKeys = {
  all: ['labels'] as const,
  /** One board's labels, by name. */
  board: (boardId: string) => [...labelKeys.all, boardId] as const,
};

import { useMemo, type ReactNode } from 'react';
import type { Member } from '#shared/schemas/boards.ts';
import { useBoards } from '#web/features/boards/api/get-boards.ts';
import { BoardScopeContext, MemberNamesContext } from '#web/features/tasks/api/board-scope.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { BoardMenuButton } from '#web/features/boards/components/board-switcher.tsx';
import { SIDEBAR_QUERY } from './layout-queries.ts';

/** Hands the viewer's boards (and the board on screen, with its members when known) to the task screens. */
export function BoardScopeProvider({ boardId = null, members, children }: { boardId?: string | null; members?: readonly Member[] | undefined; children: ReactNode }) {
  const { data } = useBoards();
  const memberNames = useMemo(() => (members ? new Map(members.flatMap((member) => (member.fullName === null ? [] : [[member.email.toLowerCase(), member.fullName] as const]))) : undefined), [members]);
  const scope = useMemo(() => ({ boards: data, boardId }), [data, boardId]);
  return (
    <BoardScopeContext value={scope}>
      <MemberNamesContext value={memberNames}>{children}</MemberNamesContext>
    </BoardScopeContext>
  );
}

/** The switcher's button beside a board's heading, where the sidebar is not shown. */
export function NarrowBoardSwitcher() {
  const wide = useMediaQuery(SIDEBAR_QUERY);
  return wide ? null : <BoardMenuButton />;
}

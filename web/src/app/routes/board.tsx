import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, type RefObject } from 'react';
import { Link, Outlet, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { canChangeColumns, canManageBoard } from '#shared/rights.ts';
import { ButtonLink } from '#web/components/button.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { useBoard } from '#web/features/boards/api/get-board.ts';
import { boardKeys } from '#web/features/boards/api/query-keys.ts';
import { useBoards } from '#web/features/boards/api/get-boards.ts';
import { BoardMembersStrip } from '#web/features/boards/components/board-members-strip.tsx';
import { TaskBoard } from '#web/features/tasks/components/task-board.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { BoardScopeProvider, NarrowBoardSwitcher } from '../board-scope.tsx';
import { notAvailableOffline, OfflineUnavailable } from '#web/components/offline-unavailable.tsx';
import { PageLoading } from '../root-layout.tsx';
import './status-page.css';

/** A board the viewer is not on answers 404, exactly as one that does not exist. */
export function BoardNotFound() {
  const { t } = useLingui();
  const notFound = t`Board not found`;
  useDocumentTitle(notFound);
  return (
    <div className="page status-page">
      <PageHeading className="status-page__title">{notFound}</PageHeading>
      <p className="status-page__text">
        <Trans>It may have been deleted, or you are not on this board. Ask one of its admins to add you.</Trans>
      </p>
      <div className="status-page__actions">
        <ButtonLink to="/tasks" variant="primary">
          <Trans>Go to all my tasks</Trans>
        </ButtonLink>
      </div>
    </div>
  );
}

/**
 * Leaves the board's pages when the viewer is no longer on it (removed, left in another tab, or
 * the board was deleted): the board went from their list, so they go to "All my tasks".
 */
export function useLeaveWhenRemoved(boardId: string, handled?: RefObject<boolean>) {
  const boards = useBoards();
  const navigate = useNavigate();
  const { notify } = useNotices();
  const { t } = useLingui();
  const seen = useRef<string | null>(null);
  const board = boards.data?.find((b) => b._id === boardId);
  useEffect(() => {
    if (board) {
      seen.current = board.name;
      return;
    }
    // The viewer left or deleted it here: that page says so itself.
    if (boards.data && seen.current !== null && handled?.current !== true) {
      const name = displayName(seen.current);
      notify('info', t({ message: `You are no longer on ${name}.`, comment: 'name: a board’s name' }));
      seen.current = null;
      void navigate('/tasks', { replace: true });
    }
  }, [board, boards.data, navigate, notify, handled, t]);
}

/**
 * /boards/:boardId — the board's tasks in its own columns, headed by its name, its members and
 * the way to its settings. /boards/:boardId/tasks/:id opens a task
 * over it (on a narrow screen the task page alone: see app/routes.tsx).
 */
export function BoardPage() {
  const { boardId = '' } = useParams();
  const detail = useBoard(boardId);
  const boards = useBoards();
  const listed = boards.data?.find((b) => b._id === boardId);
  const board = detail.data?.board ?? listed;
  const queryClient = useQueryClient();
  const { t } = useLingui();
  useLeaveWhenRemoved(boardId);
  const name = board ? displayName(board.name) : t({ message: 'Board', comment: 'The title of a board’s page while its name is not known' });
  useDocumentTitle(name);

  // Offline, a board never opened on this device: its name may be in the switcher, its tasks are not here.
  if (notAvailableOffline(detail)) {
    return (
      <div className="page status-page">
        <PageHeading className="status-page__title">{name}</PageHeading>
        <OfflineUnavailable className="status-page__text" />
      </div>
    );
  }

  if (!board) {
    if (detail.isError && isApiError(detail.error) && detail.error.status === 404) return <BoardNotFound />;
    if (detail.isError) {
      const reason = errorText(detail.error);
      return (
        <div className="page">
          <RetryAlert onRetry={() => void detail.refetch()}>
            <Trans comment="reason: why, in the server’s or the app’s words">Couldn’t load this board. {reason}</Trans>
          </RetryAlert>
        </div>
      );
    }
    return <PageLoading />;
  }

  const settingsLabel = canManageBoard(board.role) ? t`Board settings` : t`About this board`;
  const subtitle = (
    <div className="board-meta">
      {detail.data ? <BoardMembersStrip members={detail.data.members} /> : null}
      <Link to={`/boards/${encodeURIComponent(board._id)}/settings`} className="board-meta__settings">
        {settingsLabel}
      </Link>
      {board.description ? <p className="board-meta__description" dir="auto">{board.description}</p> : null}
    </div>
  );

  return (
    <BoardScopeProvider boardId={board._id} members={detail.data?.members}>
      <div className="page page--board">
        <TaskBoard
          key={board._id}
          boardId={board._id}
          title={name}
          headingExtra={<NarrowBoardSwitcher />}
          subtitle={subtitle}
          columns={board.columns}
          canChangeColumns={canChangeColumns(board.role)}
          // The board's columns come with the board (and live, with its `board.updated` event).
          onColumnsChanged={() => queryClient.invalidateQueries({ queryKey: boardKeys.all })}
        />
        <Outlet />
      </div>
    </BoardScopeProvider>
  );
}

/** /boards/:boardId/tasks/:id on a narrow screen: the task page alone, still knowing its board. */
export function BoardTaskOnly() {
  const { boardId = '' } = useParams();
  return (
    <BoardScopeProvider boardId={boardId}>
      <Outlet />
    </BoardScopeProvider>
  );
}

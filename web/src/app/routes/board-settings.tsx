import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { canChangeLabels, canManageBoard, canManageWebhooks } from '#shared/rights.ts';
import { useNotices } from '#web/components/notices.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { useBoard } from '#web/features/boards/api/get-board.ts';
import { BoardSettings } from '#web/features/boards/components/board-settings.tsx';
import { BoardLabelsSection } from '#web/features/labels/components/board-labels-section.tsx';
import { taskKeys } from '#web/features/tasks/api/query-keys.ts';
import { BoardWebhooksSection } from '#web/features/webhooks/components/board-webhooks-section.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { PageLoading } from '../root-layout.tsx';
import { BoardNotFound, useLeaveWhenRemoved } from './board.tsx';

/** /boards/:boardId/settings — the board's name, description, members, labels and (admins) webhooks; leave; delete. */
export function BoardSettingsPage() {
  const { boardId = '' } = useParams();
  const detail = useBoard(boardId);
  const { session } = useSession();
  const navigate = useNavigate();
  const { notify } = useNotices();
  const queryClient = useQueryClient();
  const me = session.status === 'signedIn' ? session.user.email : '';
  const name = detail.data?.board.name;
  useDocumentTitle(name ? `${name} settings` : 'Board settings');
  const gone = useRef(false);
  useLeaveWhenRemoved(boardId, gone);

  if (detail.isPending) return <PageLoading />;
  if (detail.isError) {
    if (isApiError(detail.error) && detail.error.status === 404) return <BoardNotFound />;
    return (
      <div className="page">
        <RetryAlert onRetry={() => void detail.refetch()}>Couldn’t load this board. {errorText(detail.error)}</RetryAlert>
      </div>
    );
  }
  const { board } = detail.data;
  return (
    <div className="page">
      <Link className="task-page__back" to={`/boards/${encodeURIComponent(board._id)}`}>
        <span aria-hidden="true">← </span>Back to {board.name}
      </Link>
      <PageHeading className="settings-title">{canManageBoard(board.role) ? `${board.name}: settings` : board.name}</PageHeading>
      <BoardSettings
        detail={detail.data}
        me={me}
        labels={
          <>
            <BoardLabelsSection boardId={board._id} canWrite={canChangeLabels(board.role)} />
            {canManageWebhooks(board.role) ? <BoardWebhooksSection boardId={board._id} /> : null}
          </>
        }
        onCsvImported={() => void queryClient.invalidateQueries({ queryKey: taskKeys.all })}
        onGone={(how) => {
          gone.current = true;
          notify('success', how === 'left' ? `You left ${board.name}.` : `Deleted ${board.name}.`);
          void navigate('/tasks', { replace: true });
        }}
      />
    </div>
  );
}

import { Trans, useLingui } from '@lingui/react/macro';
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
import { displayName } from '#web/lib/product-names.ts';
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
  const { t } = useLingui();
  const me = session.status === 'signedIn' ? session.user.email : '';
  const savedName = detail.data?.board.name;
  const name = savedName ? displayName(savedName) : null;
  useDocumentTitle(name ? t({ message: `${name} settings`, comment: 'The tab’s title of a board’s settings page; name: the board’s name' }) : t`Board settings`);
  const gone = useRef(false);
  useLeaveWhenRemoved(boardId, gone);

  if (detail.isPending) return <PageLoading />;
  if (detail.isError) {
    if (isApiError(detail.error) && detail.error.status === 404) return <BoardNotFound />;
    const reason = errorText(detail.error);
    return (
      <div className="page">
        <RetryAlert onRetry={() => void detail.refetch()}>
          <Trans comment="reason: why, in the server’s or the app’s words">Couldn’t load this board. {reason}</Trans>
        </RetryAlert>
      </div>
    );
  }
  const { board } = detail.data;
  const boardName = displayName(board.name);
  return (
    <div className="page">
      <Link className="task-page__back" to={`/boards/${encodeURIComponent(board._id)}`}>
        <span aria-hidden="true">← </span>
        <Trans comment="A link back to a board; boardName: its name">Back to {boardName}</Trans>
      </Link>
      <PageHeading className="settings-title">
        {canManageBoard(board.role) ? <Trans comment="The heading of a board’s settings page; boardName: its name">{boardName}: settings</Trans> : boardName}
      </PageHeading>
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
          notify('success', how === 'left' ? t`You left ${boardName}.` : t`Deleted ${boardName}.`);
          void navigate('/tasks', { replace: true });
        }}
      />
    </div>
  );
}

import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useIsRestoring, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ButtonLink } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { TaskComments } from '#web/features/comments/components/task-comments.tsx';
import { boardPath, useBoardScope } from '#web/features/tasks/api/board-scope.ts';
import { checklistQueryOptions } from '#web/features/checklists/api/get-checklist.ts';
import { commentsQueryOptions } from '#web/features/comments/api/get-comments.ts';
import { activityKey, activityQueryOptions } from '#web/features/tasks/api/get-task-activity.ts';
import { useTask } from '#web/features/tasks/api/get-task.ts';
import { TaskActivity } from '#web/features/tasks/components/task-activity.tsx';
import { TaskDetails } from '#web/features/tasks/components/task-details.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { documentTitle, useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { useShortcuts } from '#web/lib/use-shortcuts.ts';
import { TaskPageAttachments } from '../attachments-host.tsx';
import { TaskPageChecklist } from '../checklist-host.tsx';
import { notAvailableOffline, OfflineUnavailable } from '#web/components/offline-unavailable.tsx';
import './task.css';

/** From this width the task opens as a panel over the board (kept in step with app/routes.tsx). */
export const WIDE_SCREEN_QUERY = '(min-width: 56.25rem)';

/** The board's title (routes/tasks.tsx), put back when the task closes. */
const TASKS_TITLE = msg({ message: 'Tasks', comment: 'The title of the page of all one’s tasks' });

/**
 * /tasks/:id — one task with every field, its description, checklist, files, comments and activity. The board
 * stays behind it on a wide screen (a modal panel; Esc, the close button or the overlay go back
 * to the board); on a narrow one it is a page of its own. Either way the address is the task's,
 * so it can be linked, reloaded and left with the back button.
 */
export function TaskPage() {
  const { id = '' } = useParams();
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  const navigate = useNavigate();
  const location = useLocation();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const task = useTask(id);
  // A task not read yet: its checklist, comments and activity are asked for beside it, not once
  // it has come and its sections have mounted (one round trip less before the page is whole).
  // Not while the device copy is being restored: the queries wait for it, and so does this.
  const restoring = useIsRestoring();
  const taskPending = task.isPending;
  useEffect(() => {
    if (restoring || !taskPending) return;
    // A failure is the sections' to show (they ask again when they mount).
    const ignore = () => undefined;
    void queryClient.query(checklistQueryOptions(id)).catch(ignore);
    void queryClient.query(commentsQueryOptions(id)).catch(ignore);
    void queryClient.query(activityQueryOptions(id)).catch(ignore);
  }, [restoring, taskPending, id, queryClient]);
  // Opened from a board (`/boards/:id/tasks/:taskId`): closing goes back to that board.
  const back = boardPath(useBoardScope().boardId);
  const bodyRef = useRef<HTMLDivElement>(null);
  const { t } = useLingui();
  const notFound = task.isError && isApiError(task.error) && task.error.status === 404;
  const taskWord = t({ message: 'Task', comment: 'The title of a task’s page while its title is not known' });
  const notFoundTitle = t`Task not found`;
  const title = task.data?.taskTitle ?? (notFound ? notFoundTitle : task.isError || notAvailableOffline(task) ? taskWord : t`Loading task…`);
  useDocumentTitle(task.data?.taskTitle ?? (notFound ? notFoundTitle : taskWord));
  // Closing the task leaves the board, whose title was overwritten by the task's (in the
  // language in use then).
  useEffect(
    () => () => {
      document.title = documentTitle(i18n._(TASKS_TITLE));
    },
    [],
  );

  // Opened from a card: going back is the same as the browser's back button (no extra entry).
  const fromBoard = (location.state as { fromBoard?: boolean } | null)?.fromBoard === true;
  const close = useCallback(() => {
    if (fromBoard) void navigate(-1);
    else void navigate({ pathname: back, search: location.search });
  }, [fromBoard, navigate, location.search, back]);
  // The page form has no dialog to catch Esc.
  useShortcuts({ Escape: close }, !wide);

  const me = session.status === 'signedIn' ? session.user.email : '';
  const myName = session.status === 'signedIn' ? session.user.fullName : '';
  const onCommentsChanged = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: activityKey(id) });
  }, [queryClient, id]);

  let body: ReactNode;
  if (notAvailableOffline(task)) {
    body = <OfflineUnavailable className="task-page__loading" />;
  } else if (task.isPending) {
    body = (
      <p className="task-page__loading" role="status">
        <Spinner size={20} /> <Trans>Loading task…</Trans>
      </p>
    );
  } else if (notFound) {
    body = (
      <div className="task-page__missing">
        <p>
          <Trans>It may have been deleted, or it is not shared with you.</Trans>
        </p>
        {wide ? (
          <ButtonLink to={{ pathname: back, search: location.search }} variant="primary">
            <Trans>Back to the board</Trans>
          </ButtonLink>
        ) : null}
      </div>
    );
  } else if (task.isError) {
    const reason = errorText(task.error);
    body = (
      <RetryAlert onRetry={() => void task.refetch()}>
        <Trans comment="reason: why, in the server’s or the app’s words">Couldn’t load this task. {reason}</Trans>
      </RetryAlert>
    );
  } else {
    body = (
      <>
        <TaskDetails task={task.data} />
        <TaskPageChecklist task={task.data} />
        <TaskPageAttachments task={task.data} />
        <TaskComments taskId={id} me={me} myName={myName} onChanged={onCommentsChanged} />
        <TaskActivity taskId={id} />
      </>
    );
  }

  const content = (
    <div className="task-page__body" ref={bodyRef} tabIndex={-1}>
      {body}
    </div>
  );

  if (wide) {
    return (
      <Dialog
        open
        onClose={close}
        title={title}
        className="dialog--task"
        closeLabel={t`Close task`}
        initialFocusRef={bodyRef}
      >
        {content}
      </Dialog>
    );
  }
  return (
    <div className="page task-page">
      <Link className="task-page__back" to={{ pathname: back, search: location.search }}>
        <span aria-hidden="true">← </span>
        <Trans>Back to the board</Trans>
      </Link>
      <PageHeading className="task-page__title" dir="auto">{title}</PageHeading>
      {content}
    </div>
  );
}

import type { QueryClient } from '@tanstack/react-query';
import { applyBoardEvent, BOARD_EVENTS, refreshBoards } from '#web/features/boards/api/board-events.ts';
import { boardKeys } from '#web/features/boards/api/query-keys.ts';
import { applyCommentEvent, COMMENT_EVENTS, refreshComments } from '#web/features/comments/api/comment-events.ts';
import { refreshBoardLabels } from '#web/features/labels/api/get-labels.ts';
import { activityKey } from '#web/features/tasks/api/get-task-activity.ts';
import { refreshBoardTasks } from '#web/features/tasks/api/list-refresh.ts';
import type { LiveEventHandlers } from '#web/features/tasks/api/live-events.ts';
import { refreshTasks } from '#web/features/tasks/api/query-keys.ts';
import { TASK_EVENTS } from '#web/features/tasks/api/task-events.ts';
import type * as NotificationEvents from '#web/features/notifications/api/notification-events.ts';
import type * as AttachmentEvents from '#web/features/attachments/api/attachment-events.ts';

/**
 * The comments' events on the tab's live stream (composed here: features do not import each
 * other). A comment changes its task's comments and activity ("commented").
 */
const commentLiveEvents: LiveEventHandlers = {
  types: COMMENT_EVENTS,
  apply(queryClient, type, data) {
    const taskId = applyCommentEvent(queryClient, type, data);
    if (taskId !== null) void queryClient.invalidateQueries({ queryKey: activityKey(taskId) });
  },
  refresh: refreshComments,
};

/**
 * The boards' events: the switcher's list and an open board's members follow at once. Being
 * added to a board or taken off one changes which tasks the viewer sees, and the stream sends
 * no task events for that (a removed member hears nothing more of the board's tasks): the
 * task lists are asked again.
 */
const boardLiveEvents: LiveEventHandlers = {
  types: BOARD_EVENTS,
  apply(queryClient, type, data) {
    const boardId = applyBoardEvent(queryClient, type, data);
    if (boardId !== null && type !== 'board.updated') void refreshTasks(queryClient);
  },
  refresh: refreshBoards,
};

/**
 * A board's labels: renaming, recolouring or deleting one sends the board's `board.updated`
 * (as do its name and members). Its label list is asked again, and so are the cards and task
 * pages of its tasks, whose copies carry the labels by name.
 */
const labelLiveEvents: LiveEventHandlers = {
  types: ['board.updated'],
  apply(queryClient, _type, data) {
    const id = (data as { board?: { _id?: unknown } } | null)?.board?._id;
    if (typeof id !== 'string') return;
    void refreshBoardLabels(queryClient, id);
    refreshBoardTasks(queryClient, id);
  },
  refresh: (queryClient) => refreshBoardLabels(queryClient),
};

/** How long task events are gathered before the switcher's open counts are asked again. */
const COUNTS_DELAY_MS = 400;
const countTimers = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

/** The switcher's open counts follow task changes: one request per burst of task events. */
const boardCountLiveEvents: LiveEventHandlers = {
  types: TASK_EVENTS,
  apply(queryClient) {
    if (countTimers.has(queryClient)) return;
    countTimers.set(
      queryClient,
      setTimeout(() => {
        countTimers.delete(queryClient);
        void queryClient.invalidateQueries({ queryKey: boardKeys.list(), exact: true });
      }, COUNTS_DELAY_MS),
    );
  },
  refresh: async () => {
    // refreshBoards (above) asks for the list again already.
  },
};

/**
 * Handlers whose feature code is loaded with their first event rather than with the signed-in
 * pages' chunk; one promise keeps the events in order.
 */
function loadedOnFirstEvent<Events>(
  types: readonly string[],
  load: () => Promise<Events>,
  apply: (events: Events, queryClient: QueryClient, type: string, data: unknown) => void,
  refresh: (events: Events, queryClient: QueryClient) => Promise<void>,
): LiveEventHandlers {
  let loaded: Promise<Events> | undefined;
  const events = () => (loaded ??= load());
  return {
    types,
    apply(queryClient, type, data) {
      void events().then((feature) => {
        apply(feature, queryClient, type, data);
      });
    },
    refresh: async (queryClient) => {
      await refresh(await events(), queryClient);
    },
  };
}

/**
 * The person's notifications: the inbox and the bell's count follow. The feature's code is
 * loaded with its first event (the bell has usually loaded it already), so the pages a signed-out
 * visitor sees never carry it.
 */
export const notificationLiveEvents = loadedOnFirstEvent<typeof NotificationEvents>(
  // NOTIFICATION_EVENTS of the feature, written out here so that importing them loads nothing.
  ['notification.created', 'notification.read'],
  () => import('#web/features/notifications/api/notification-events.ts'),
  (events, queryClient, type, data) => {
    events.applyNotificationEvent(queryClient, type, data);
  },
  (events, queryClient) => events.refreshNotifications(queryClient),
);

/**
 * A task's files: someone's upload or deletion shows on its open page. The feature's code comes
 * with the task page; here it is loaded only with the first such event.
 */
export const attachmentLiveEvents = loadedOnFirstEvent<typeof AttachmentEvents>(
  // ATTACHMENT_EVENTS of the feature, written out here so that importing them loads nothing.
  ['attachment.created', 'attachment.deleted'],
  () => import('#web/features/attachments/api/attachment-events.ts'),
  (events, queryClient, type, data) => {
    events.applyAttachmentEvent(queryClient, type, data);
  },
  (events, queryClient) => events.refreshAttachments(queryClient),
);

/** Every other feature's live events, in one constant list (the live connection reopens when it changes). */
export const LIVE_EVENT_HANDLERS: readonly LiveEventHandlers[] = [
  commentLiveEvents,
  boardLiveEvents,
  labelLiveEvents,
  boardCountLiveEvents,
  notificationLiveEvents,
  attachmentLiveEvents,
];

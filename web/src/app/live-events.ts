import { applyCommentEvent, COMMENT_EVENTS, refreshComments } from '#web/features/comments/api/comment-events.ts';
import { activityKey } from '#web/features/tasks/api/get-task-activity.ts';
import type { LiveEventHandlers } from '#web/features/tasks/api/live-events.ts';

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

/** Every other feature's live events, in one constant list (the live connection reopens when it changes). */
export const LIVE_EVENT_HANDLERS: readonly LiveEventHandlers[] = [commentLiveEvents];

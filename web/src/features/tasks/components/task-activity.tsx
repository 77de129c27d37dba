import type { Priority } from '#shared/constants.ts';
import { Link } from 'react-router';
import type { Activity, ActivityChangeField, ChecklistAction } from '#shared/schemas/comments.ts';
import { LoadingLine } from '#web/components/spinner.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useNow } from '#web/lib/use-now.ts';
import { boardPath, useBoardScope } from '../api/board-scope.ts';
import { useTaskActivity } from '../api/get-task-activity.ts';
import { formatDeadline } from '../utils/deadline.ts';
import { PRIORITY_LABELS } from './priority.tsx';
import { Timestamp } from './task-details.tsx';
import './task-activity.css';

const FIELD_LABELS: Record<ActivityChangeField, string> = {
  taskTitle: 'title',
  workTitle: 'work title',
  description: 'description',
  assignee: 'assignee',
  priority: 'priority',
  deadline: 'deadline',
  startAt: 'start',
  // A move: from and to are the boards' names.
  board: 'board',
  // A move to another column of the same category: from and to are the columns' names.
  column: 'column',
  labels: 'labels',
  repeat: 'repeat',
  // A file added (from none to its name) or deleted (from its name to none): said by What.
  attachment: 'file',
};

const VERBS: Record<Exclude<Activity['type'], 'updated'>, string> = {
  created: 'created the task',
  completed: 'marked it complete',
  reopened: 'reopened it',
  commented: 'commented',
  checklist: 'changed the checklist',
};

/** Long values (a description) are cut in the list; the task shows them in full. */
const PREVIEW_MAX = 80;

function showValue(field: ActivityChangeField, value: unknown, now: Date): string {
  if (value === null || value === undefined || value === '') return 'none';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (field === 'priority' && text in PRIORITY_LABELS) return PRIORITY_LABELS[text as Priority];
  if (field === 'deadline') {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return formatDeadline(date, now);
  }
  return text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX)}…` : text;
}

function Changes({ changes, now }: { changes: NonNullable<Activity['changes']>; now: Date }) {
  // In a fixed order (the labels' order), whatever order the object has. The labels are typed
  // against the tracked fields (shared/schemas/comments.ts) without importing that module's
  // runtime (TypeBox) into the page.
  // A file added or deleted is said in the entry's sentence (What).
  const fields = (Object.keys(FIELD_LABELS) as ActivityChangeField[]).filter((field) => field in changes && field !== 'attachment');
  if (fields.length === 0) return null;
  return (
    <ul className="activity__changes">
      {fields.map((field) => {
        const change = changes[field];
        if (!change) return null;
        return (
          <li key={field}>
            <span className="activity__field">{FIELD_LABELS[field]}</span>: <del>{showValue(field, change.from, now)}</del>
            <span aria-hidden="true"> → </span>
            <span className="visually-hidden"> changed to </span>
            <ins>{showValue(field, change.to, now)}</ins>
          </li>
        );
      })}
    </ul>
  );
}

const CHECKLIST_VERBS: Record<ChecklistAction, string> = {
  added: 'added',
  checked: 'checked',
  unchecked: 'unchecked',
  edited: 'renamed an item to',
  moved: 'moved',
  deleted: 'deleted',
};

/** What the entry's person did: "checked “Buy milk”", "created it as the next occurrence of …". */
function What({ entry }: { entry: Activity }) {
  const { boardId } = useBoardScope();
  const file = entry.changes?.attachment;
  if (entry.type === 'updated' && file) {
    return file.to === null ? <>deleted the file “{file.from}”</> : <>added the file “{file.to}”</>;
  }
  if (entry.type === 'updated') return 'changed';
  if (entry.type === 'checklist' && entry.checklist) {
    return (
      <>
        {CHECKLIST_VERBS[entry.checklist.action]} “{entry.checklist.text}”{entry.checklist.action === 'added' || entry.checklist.action === 'moved' ? ' on the checklist' : ''}
      </>
    );
  }
  if (entry.type === 'created' && entry.repeatOf) {
    const path = `${boardId ? `${boardPath(boardId)}/tasks` : '/tasks'}/${encodeURIComponent(entry.repeatOf._id)}`;
    return (
      <>
        created it as the next occurrence of <Link to={path}>{entry.repeatOf.taskTitle}</Link>
      </>
    );
  }
  return VERBS[entry.type];
}

/** The task's history, oldest first: who did what, when, and for a change what it was before. */
export function TaskActivity({ taskId }: { taskId: string }) {
  const now = useNow(30_000);
  const activity = useTaskActivity(taskId);

  return (
    <section className="task-section activity" aria-labelledby="task-activity-heading">
      <h3 id="task-activity-heading">Activity</h3>
      {activity.isPending ? (
        <LoadingLine>Loading activity…</LoadingLine>
      ) : activity.isError ? (
        <RetryAlert onRetry={() => void activity.refetch()}>
          Couldn’t load the activity. {errorText(activity.error)}
        </RetryAlert>
      ) : activity.data.length === 0 ? (
        <p className="task-details__none">No activity yet.</p>
      ) : (
        <ol className="activity__list">
          {activity.data.map((entry) => (
            <li key={entry._id} className="activity__item">
              <p>
                <strong title={entry.by.email}>{entry.by.fullName}</strong> <What entry={entry} /> · <Timestamp iso={entry.at} now={now} />
              </p>
              {entry.changes ? <Changes changes={entry.changes} now={now} /> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

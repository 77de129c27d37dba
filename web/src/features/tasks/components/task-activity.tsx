import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Priority } from '#shared/constants.ts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Activity, ActivityChangeField } from '#shared/schemas/comments.ts';
import { LoadingLine } from '#web/components/spinner.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useNow } from '#web/lib/use-now.ts';
import { boardPath, useBoardScope } from '../api/board-scope.ts';
import { useTaskActivity } from '../api/get-task-activity.ts';
import { formatDeadline } from '../utils/deadline.ts';
import { PRIORITY_LABELS } from './priority.tsx';
import { Timestamp } from './task-details.tsx';
import './task-activity.css';

/** The changed fields' names, lowercase as they follow the person's name in the list. */
const FIELD_LABELS: Record<ActivityChangeField, MessageDescriptor> = {
  taskTitle: msg({ message: 'title', comment: 'Activity: a changed field of a task (lowercase)' }),
  workTitle: msg({ message: 'work title', comment: 'Activity: a changed field of a task (lowercase)' }),
  description: msg({ message: 'description', comment: 'Activity: a changed field of a task (lowercase)' }),
  assignee: msg({ message: 'assignee', comment: 'Activity: a changed field of a task (lowercase)' }),
  priority: msg({ message: 'priority', comment: 'Activity: a changed field of a task (lowercase)' }),
  deadline: msg({ message: 'deadline', comment: 'Activity: a changed field of a task (lowercase)' }),
  startAt: msg({ message: 'start', comment: 'Activity: a changed field of a task, when its work starts (lowercase)' }),
  // A move: from and to are the boards' names.
  board: msg({ message: 'board', comment: 'Activity: a changed field of a task, the board it is on (lowercase)' }),
  // A move to another column of the same category: from and to are the columns' names.
  column: msg({ message: 'column', comment: 'Activity: a changed field of a task, the board’s column it is in (lowercase)' }),
  labels: msg({ message: 'labels', comment: 'Activity: a changed field of a task (lowercase)' }),
  repeat: msg({ message: 'repeat', comment: 'Activity: a changed field of a task, how often it repeats (lowercase)' }),
  // A file added (from none to its name) or deleted (from its name to none): said by Sentence.
  attachment: msg({ message: 'file', comment: 'Activity: a changed field of a task, an attached file (lowercase)' }),
};

/** Long values (a description) are cut in the list; the task shows them in full. */
const PREVIEW_MAX = 80;

/** A field's value before or after a change, as the list shows it (made at render, in the language in use). */
function showValue(field: ActivityChangeField, value: unknown, now: Date): string {
  if (value === null || value === undefined || value === '') return t({ message: 'none', comment: 'Activity: a field’s value before or after a change, when it had none (lowercase)' });
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (field === 'priority' && text in PRIORITY_LABELS) return PRIORITY_LABELS[text as Priority];
  if (field === 'board' || field === 'column') return displayName(text);
  if (field === 'deadline') {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return formatDeadline(date, now);
  }
  return text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX)}…` : text;
}

function Changes({ changes, now }: { changes: NonNullable<Activity['changes']>; now: Date }) {
  const { i18n } = useLingui();
  // In a fixed order (the labels' order), whatever order the object has. The labels are typed
  // against the tracked fields (shared/schemas/comments.ts) without importing that module's
  // runtime (TypeBox) into the page.
  // A file added or deleted is said in the entry's sentence (Sentence).
  const fields = (Object.keys(FIELD_LABELS) as ActivityChangeField[]).filter((field) => field in changes && field !== 'attachment');
  if (fields.length === 0) return null;
  return (
    <ul className="activity__changes">
      {fields.map((field) => {
        const change = changes[field];
        if (!change) return null;
        const name = i18n._(FIELD_LABELS[field]);
        const before = showValue(field, change.from, now);
        const after = showValue(field, change.to, now);
        return (
          <li key={field}>
            <Trans comment="Activity: a changed field, its value before and after; the arrow is shown only, “changed to” read by screen readers only">
              <span className="activity__field">{name}</span>: <del>{before}</del>
              <span aria-hidden="true"> → </span>
              <span className="visually-hidden"> changed to </span>
              <ins>{after}</ins>
            </Trans>
          </li>
        );
      })}
    </ul>
  );
}

/** The person who did it: in bold, their e-mail address its tooltip, in their name's own direction. */
function Author({ email, children }: { email: string; children?: ReactNode }) {
  return (
    <strong title={email} dir="auto">
      {children}
    </strong>
  );
}

/**
 * Who did what, as one sentence per kind of entry: "Ada checked “Buy milk”", "Ada created it as
 * the next occurrence of …". The person's name is in bold, their e-mail address its tooltip.
 */
function Sentence({ entry }: { entry: Activity }) {
  const { boardId } = useBoardScope();
  const name = entry.by.fullName;
  const email = entry.by.email;
  const file = entry.changes?.attachment;
  if (entry.type === 'updated' && file) {
    if (file.to === null) {
      const fileName = <bdi>{file.from}</bdi>;
      return (
        <Trans comment="Activity: someone deleted an attached file">
          <Author email={email}>{name}</Author> deleted the file “{fileName}”
        </Trans>
      );
    }
    const fileName = <bdi>{file.to}</bdi>;
    return (
      <Trans comment="Activity: someone attached a file">
        <Author email={email}>{name}</Author> added the file “{fileName}”
      </Trans>
    );
  }
  if (entry.type === 'updated') {
    return (
      <Trans comment="Activity: someone changed fields of the task (listed under this line)">
        <Author email={email}>{name}</Author> changed
      </Trans>
    );
  }
  if (entry.type === 'checklist' && entry.checklist) {
    const item = <bdi>{entry.checklist.text}</bdi>;
    switch (entry.checklist.action) {
      case 'added':
        return (
          <Trans comment="Activity: someone added an item to the task’s checklist">
            <Author email={email}>{name}</Author> added “{item}” on the checklist
          </Trans>
        );
      case 'checked':
        return (
          <Trans comment="Activity: someone checked an item of the task’s checklist">
            <Author email={email}>{name}</Author> checked “{item}”
          </Trans>
        );
      case 'unchecked':
        return (
          <Trans comment="Activity: someone unchecked an item of the task’s checklist">
            <Author email={email}>{name}</Author> unchecked “{item}”
          </Trans>
        );
      case 'edited':
        return (
          <Trans comment="Activity: someone renamed an item of the task’s checklist (to the text quoted)">
            <Author email={email}>{name}</Author> renamed an item to “{item}”
          </Trans>
        );
      case 'moved':
        return (
          <Trans comment="Activity: someone moved an item of the task’s checklist">
            <Author email={email}>{name}</Author> moved “{item}” on the checklist
          </Trans>
        );
      case 'deleted':
        return (
          <Trans comment="Activity: someone deleted an item of the task’s checklist">
            <Author email={email}>{name}</Author> deleted “{item}”
          </Trans>
        );
    }
  }
  if (entry.type === 'created' && entry.repeatOf) {
    const path = `${boardId ? `${boardPath(boardId)}/tasks` : '/tasks'}/${encodeURIComponent(entry.repeatOf._id)}`;
    const previous = entry.repeatOf.taskTitle;
    return (
      <Trans comment="Activity: a repeating task’s next occurrence was created; the link is the previous occurrence">
        <Author email={email}>{name}</Author> created it as the next occurrence of <Link to={path}>{previous}</Link>
      </Trans>
    );
  }
  switch (entry.type) {
    case 'created':
      return (
        <Trans comment="Activity: someone created the task">
          <Author email={email}>{name}</Author> created the task
        </Trans>
      );
    case 'completed':
      return (
        <Trans comment="Activity: someone marked the task complete">
          <Author email={email}>{name}</Author> marked it complete
        </Trans>
      );
    case 'reopened':
      return (
        <Trans comment="Activity: someone reopened the completed task">
          <Author email={email}>{name}</Author> reopened it
        </Trans>
      );
    case 'commented':
      return (
        <Trans comment="Activity: someone commented on the task">
          <Author email={email}>{name}</Author> commented
        </Trans>
      );
    case 'checklist':
      return (
        <Trans comment="Activity: someone changed the task’s checklist">
          <Author email={email}>{name}</Author> changed the checklist
        </Trans>
      );
  }
}

/** The task's history, oldest first: who did what, when, and for a change what it was before. */
export function TaskActivity({ taskId }: { taskId: string }) {
  const now = useNow(30_000);
  const activity = useTaskActivity(taskId);

  return (
    <section className="task-section activity" aria-labelledby="task-activity-heading">
      <h3 id="task-activity-heading">
        <Trans comment="Heading of a task’s history of changes">Activity</Trans>
      </h3>
      {activity.isPending ? (
        <LoadingLine>
          <Trans>Loading activity…</Trans>
        </LoadingLine>
      ) : activity.isError ? (
        <RetryAlert onRetry={() => void activity.refetch()}>
          <LoadError error={activity.error} />
        </RetryAlert>
      ) : activity.data.length === 0 ? (
        <p className="task-details__none">
          <Trans>No activity yet.</Trans>
        </p>
      ) : (
        <ol className="activity__list">
          {activity.data.map((entry) => (
            <li key={entry._id} className="activity__item">
              <p>
                <Sentence entry={entry} /> · <Timestamp iso={entry.at} now={now} />
              </p>
              {entry.changes ? <Changes changes={entry.changes} now={now} /> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function LoadError({ error }: { error: Error }) {
  const reason = errorText(error);
  return <Trans>Couldn’t load the activity. {reason}</Trans>;
}

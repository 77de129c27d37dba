import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PRIORITY_ORDER, type Priority } from '#shared/constants.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task, UpdateTaskBody } from '#shared/schemas/tasks.ts';

/*
 * Group by: the board's columns and the table split into groups of one field (the assignee, the
 * priority or a label). The choice is the address's `?group=` (absent: no groups), beside
 * `?view=`; it changes only how the tasks already read are laid out, never what is asked of
 * the server. A task with several labels is in each of its labels' groups.
 */

export const BOARD_GROUPS = ['none', 'assignee', 'priority', 'label'] as const;
export type BoardGroup = (typeof BOARD_GROUPS)[number];
export const GROUP_PARAM = 'group';

/** The choices of the Group select (shown with `i18n._`). */
export const GROUP_LABELS: Record<BoardGroup, MessageDescriptor> = {
  none: msg({ message: 'None', comment: 'Group by: no grouping' }),
  assignee: msg`Assignee`,
  priority: msg`Priority`,
  label: msg`Label`,
};

/** The address's `?group=`; anything unknown is no grouping. */
export function parseGroup(raw: string | null): BoardGroup {
  return BOARD_GROUPS.includes(raw as BoardGroup) && raw !== 'none' ? (raw as BoardGroup) : 'none';
}

/** The grouping on screen and the way to change it (written into the address, other keys kept). */
export function useBoardGroup(): [BoardGroup, (group: BoardGroup) => void] {
  const [params, setParams] = useSearchParams();
  const group = parseGroup(params.get(GROUP_PARAM));
  const change = useCallback(
    (next: BoardGroup) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next === 'none') updated.delete(GROUP_PARAM);
          else updated.set(GROUP_PARAM, next);
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [group, change];
}

/** One group: its key, its name as shown, the field's value it stands for (null: "No …"), and its tasks in the order given. */
export interface TaskGroup {
  key: string;
  name: string;
  value: string | null;
  tasks: Task[];
}

const PRIORITY_NAMES: Record<Priority, MessageDescriptor> = {
  urgent: msg({ message: 'Urgent', comment: 'A task’s priority' }),
  high: msg({ message: 'High', comment: 'A task’s priority' }),
  normal: msg({ message: 'Normal', comment: 'A task’s priority' }),
  low: msg({ message: 'Low', comment: 'A task’s priority' }),
};
const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) || a.localeCompare(b);

/** A group's header as read out: "Low, 2 tasks" (on screen, the name and a count badge). */
export const groupName = (name: string, count: number): string => t`${name}, ${plural(count, { one: '# task', other: '# tasks' })}`;

/** The key of the group of `value` (null: the "No …" group). */
export const groupKey = (group: BoardGroup, value: string | null): string => (value === null ? `${group}:none` : `${group}:${value}`);

/**
 * The tasks split into groups, each group's tasks in the order of `tasks`, named in the language
 * in use (call it where the groups are shown):
 * - priority: every priority, the most pressing first (empty ones too, so a card can go there);
 * - assignee: each assignee by address, then "No assignee" when a task has none;
 * - label: the board's labels (`labels`, empty ones too) and any other label a task carries, by
 *   name, then "No label"; a task with several labels is in each of them.
 */
export function groupTasks(tasks: readonly Task[], group: Exclude<BoardGroup, 'none'>, labels: readonly Label[] = []): TaskGroup[] {
  if (group === 'priority') {
    return PRIORITY_ORDER.map((priority) => ({ key: groupKey(group, priority), name: i18n._(PRIORITY_NAMES[priority]), value: priority, tasks: tasks.filter((task) => task.priority === priority) }));
  }
  if (group === 'assignee') {
    const byAssignee = new Map<string, Task[]>();
    for (const task of tasks) byAssignee.set(task.assignee, [...(byAssignee.get(task.assignee) ?? []), task]);
    const named = [...byAssignee.keys()].filter((email) => email !== '').sort(byText);
    const groups: TaskGroup[] = named.map((email) => ({ key: groupKey(group, email), name: email, value: email, tasks: byAssignee.get(email) ?? [] }));
    const none = byAssignee.get('');
    if (none) groups.push({ key: groupKey(group, null), name: t`No assignee`, value: null, tasks: none });
    return groups;
  }
  const names = new Map<string, string>(labels.map((label) => [label._id, label.name]));
  for (const task of tasks) for (const label of task.labels) if (!names.has(label._id)) names.set(label._id, label.name);
  const ids = [...names.keys()].sort((a, b) => byText(names.get(a) ?? '', names.get(b) ?? ''));
  const groups: TaskGroup[] = ids.map((id) => ({ key: groupKey(group, id), name: names.get(id) ?? '', value: id, tasks: tasks.filter((task) => task.labels.some((label) => label._id === id)) }));
  groups.push({ key: groupKey(group, null), name: t`No label`, value: null, tasks: tasks.filter((task) => task.labels.length === 0) });
  return groups;
}

/**
 * The change that takes `task` from the group `from` to the group `to` (null: nothing to
 * change, or no such change exists — an assignee cannot be cleared, so "No assignee" takes no
 * card). A label move takes off the label of `from` and adds the one of `to`; "No label" takes
 * every label off. `labels` gives the names of the labels to show meanwhile.
 */
export function groupChange(
  task: Task,
  group: Exclude<BoardGroup, 'none'>,
  from: TaskGroup,
  to: TaskGroup,
  labels: readonly Label[] = [],
): { changes: UpdateTaskBody; labels?: Task['labels'] } | null {
  if (from.key === to.key) return null;
  if (group === 'priority') return to.value === null || to.value === task.priority ? null : { changes: { priority: to.value as Priority } };
  if (group === 'assignee') return to.value === null || to.value === task.assignee ? null : { changes: { assignee: to.value } };
  if (to.value === null) return task.labels.length === 0 ? null : { changes: { labelIds: [] }, labels: [] };
  const kept = task.labels.filter((label) => label._id !== from.value && label._id !== to.value);
  const added = labels.find((label) => label._id === to.value) ?? task.labels.find((label) => label._id === to.value);
  if (!added) return null;
  const next = [...kept, added];
  return { changes: { labelIds: next.map((label) => label._id) }, labels: next };
}

import { describe, expect, it } from 'vitest';
import { makeTask } from '#web/testing/data.ts';
import { groupChange, groupTasks, parseGroup } from './board-group.ts';

const URGENT = { _id: 'l-urgent', name: 'Urgent', color: 'red' as const };
const BUG = { _id: 'l-bug', name: 'bug', color: 'blue' as const };
const DOCS = { _id: 'l-docs', name: 'Docs', color: 'green' as const };

describe('group by', () => {
  it('reads ?group=, anything unknown being no grouping', () => {
    expect(parseGroup('priority')).toBe('priority');
    expect(parseGroup('label')).toBe('label');
    expect(parseGroup('none')).toBe('none');
    expect(parseGroup('colour')).toBe('none');
    expect(parseGroup(null)).toBe('none');
  });

  it('puts each task in its priority lane, every priority shown, the most pressing first', () => {
    const a = makeTask({ priority: 'low' });
    const b = makeTask({ priority: 'urgent' });
    const c = makeTask({ priority: 'low' });
    const groups = groupTasks([a, b, c], 'priority');
    expect(groups.map((g) => [g.name, g.tasks.length])).toEqual([
      ['Urgent', 1],
      ['High', 0],
      ['Normal', 0],
      ['Low', 2],
    ]);
    expect(groups[3]?.tasks).toEqual([a, c]);
  });

  it('groups by assignee by address, "No assignee" last', () => {
    const groups = groupTasks([makeTask({ assignee: 'zoe@example.com' }), makeTask({ assignee: '' }), makeTask({ assignee: 'amy@example.com' }), makeTask({ assignee: 'zoe@example.com' })], 'assignee');
    expect(groups.map((g) => [g.name, g.value, g.tasks.length])).toEqual([
      ['amy@example.com', 'amy@example.com', 1],
      ['zoe@example.com', 'zoe@example.com', 2],
      ['No assignee', null, 1],
    ]);
  });

  it('puts a task with several labels in each of their lanes; the board’s empty labels get a lane; "No label" last', () => {
    const both = makeTask({ labels: [URGENT, BUG] });
    const none = makeTask({ labels: [] });
    const groups = groupTasks([both, none], 'label', [BUG, DOCS, URGENT]);
    expect(groups.map((g) => [g.name, g.tasks.map((t) => t._id)])).toEqual([
      ['bug', [both._id]],
      ['Docs', []],
      ['Urgent', [both._id]],
      ['No label', [none._id]],
    ]);
  });

  it('turns a move between lanes into the field’s change', () => {
    const task = makeTask({ priority: 'low', assignee: 'amy@example.com', labels: [URGENT, BUG] });
    const byPriority = groupTasks([task], 'priority');
    expect(groupChange(task, 'priority', byPriority[3]!, byPriority[1]!)).toEqual({ changes: { priority: 'high' } });
    expect(groupChange(task, 'priority', byPriority[3]!, byPriority[3]!)).toBeNull();

    const byAssignee = groupTasks([task, makeTask({ assignee: 'zoe@example.com' }), makeTask({ assignee: '' })], 'assignee');
    expect(groupChange(task, 'assignee', byAssignee[0]!, byAssignee[1]!)).toEqual({ changes: { assignee: 'zoe@example.com' } });
    // An assignee cannot be taken off.
    expect(groupChange(task, 'assignee', byAssignee[0]!, byAssignee[2]!)).toBeNull();

    const byLabel = groupTasks([task], 'label', [BUG, DOCS, URGENT]);
    const [bug, docs, , noLabel] = byLabel;
    // From "bug" to "Docs": bug off, Docs on, Urgent kept.
    expect(groupChange(task, 'label', bug!, docs!, [BUG, DOCS, URGENT])).toEqual({ changes: { labelIds: ['l-urgent', 'l-docs'] }, labels: [URGENT, DOCS] });
    expect(groupChange(task, 'label', bug!, noLabel!)).toEqual({ changes: { labelIds: [] }, labels: [] });
  });
});

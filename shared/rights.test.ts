import { describe, expect, it } from 'vitest';
import { BOARD_ROLES } from './constants.ts';
import {
  BOARD_MANAGER_ROLES,
  boardChangeRefusal,
  canChangeBoard,
  canChangeLabels,
  canChangeTask,
  canComment,
  canCommentOnTask,
  canEditTasks,
  canImportTasks,
  canLeave,
  canManageBoard,
  canManageWebhooks,
  canSeeBoard,
  isBoardRole,
  memberRemovalRefusal,
  roleAtLeast,
  ROLE_ORDER,
  TASK_EDITOR_ROLES,
} from './rights.ts';

const NONE = [null, undefined, '', 'owner', 'editor', 'ADMIN'] as const;

describe('rights on a board', () => {
  it('orders the roles admin > member > viewer, each with the rights of those after it', () => {
    expect(ROLE_ORDER).toEqual(['admin', 'member', 'viewer']);
    expect(roleAtLeast('admin', 'viewer')).toBe(true);
    expect(roleAtLeast('member', 'member')).toBe(true);
    expect(roleAtLeast('viewer', 'member')).toBe(false);
    expect(roleAtLeast('member', 'admin')).toBe(false);
    for (const none of NONE) {
      expect(isBoardRole(none)).toBe(false);
      expect(roleAtLeast(none, 'viewer')).toBe(false);
    }
  });

  it('lets every role see and comment, members and admins change tasks, labels and imports, admins manage', () => {
    const table = BOARD_ROLES.map((role) => [
      role,
      canSeeBoard(role),
      canComment(role),
      canEditTasks(role),
      canChangeLabels(role),
      canImportTasks(role),
      canManageBoard(role),
      canManageWebhooks(role),
    ]);
    expect(table).toEqual([
      ['admin', true, true, true, true, true, true, true],
      ['member', true, true, true, true, true, false, false],
      ['viewer', true, true, false, false, false, false, false],
    ]);
    expect(TASK_EDITOR_ROLES).toEqual(['admin', 'member']);
    expect(BOARD_MANAGER_ROLES).toEqual(['admin']);
  });

  it('gives no right to someone who is not an active member', () => {
    for (const none of NONE) {
      expect([canSeeBoard(none), canComment(none), canEditTasks(none), canManageBoard(none), canManageWebhooks(none)]).toEqual([false, false, false, false, false]);
    }
  });

  it('lets the assignee change and comment on their task whatever their role, and without one', () => {
    expect(canChangeTask('viewer', true)).toBe(true);
    expect(canChangeTask(null, true)).toBe(true);
    expect(canCommentOnTask(undefined, true)).toBe(true);
    expect(canChangeTask('viewer', false)).toBe(false);
    expect(canChangeTask(null, false)).toBe(false);
    expect(canCommentOnTask(null, false)).toBe(false);
    expect(canChangeTask('member', false)).toBe(true);
    expect(canCommentOnTask('viewer', false)).toBe(true);
  });

  it('never renames, shares, leaves or deletes a personal board (refused as personal before any role question)', () => {
    const personal = { role: 'admin', personal: true };
    expect(boardChangeRefusal(personal)).toBe('personal');
    expect(memberRemovalRefusal(personal, true)).toBe('personal');
    expect(memberRemovalRefusal({ role: 'viewer', personal: true }, false)).toBe('personal');
    expect(canChangeBoard(personal)).toBe(false);
    expect(canLeave(personal)).toBe(false);
    // Its owner is its admin: its labels and webhooks are theirs.
    expect(canChangeLabels(personal.role)).toBe(true);
    expect(canManageWebhooks(personal.role)).toBe(true);
  });

  it('lets only an admin change a shared board and remove someone else; anyone leaves', () => {
    expect(boardChangeRefusal({ role: 'admin', personal: false })).toBeUndefined();
    expect(boardChangeRefusal({ role: 'member', personal: false })).toBe('forbidden');
    expect(boardChangeRefusal({ role: 'viewer', personal: false })).toBe('forbidden');
    expect(canChangeBoard({ role: 'admin', personal: false })).toBe(true);
    expect(memberRemovalRefusal({ role: 'admin', personal: false }, false)).toBeUndefined();
    expect(memberRemovalRefusal({ role: 'member', personal: false }, false)).toBe('forbidden');
    for (const role of BOARD_ROLES) expect(canLeave({ role, personal: false })).toBe(true);
  });
});

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddMemberBody, MemberEnvelope, UpdateMemberBody } from '#shared/schemas/boards.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { removeBoard, writeMember } from './board-cache.ts';
import { boardKeys } from './query-keys.ts';

/*
 * A board's members: add by e-mail with a role, change a role, remove (admins), and leave
 * (anyone but the last admin). Each answer is written into the board's detail; the board's
 * own JSON (member count, the viewer's role) is asked again.
 */

const membersPath = (boardId: string, email?: string) =>
  `/boards/${encodeURIComponent(boardId)}/members${email === undefined ? '' : `/${encodeURIComponent(email)}`}`;

export async function addMember(boardId: string, body: AddMemberBody) {
  const envelope = await apiRequest<MemberEnvelope>(membersPath(boardId), { method: 'POST', body });
  return envelope.data.member;
}

export async function updateMember(boardId: string, email: string, body: UpdateMemberBody) {
  const envelope = await apiRequest<MemberEnvelope>(membersPath(boardId, email), { method: 'PATCH', body });
  return envelope.data.member;
}

export async function removeMember(boardId: string, email: string): Promise<void> {
  await apiRequest<undefined>(membersPath(boardId, email), { method: 'DELETE', expectNoContent: true });
}

export function useAddMember(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddMemberBody) => addMember(boardId, body),
    onSuccess: (member) => {
      writeMember(queryClient, boardId, member.email, member);
      void queryClient.invalidateQueries({ queryKey: boardKeys.all });
    },
  });
}

export function useUpdateMember(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email, role }: { email: string } & UpdateMemberBody) => updateMember(boardId, email, { role }),
    onSuccess: (member) => {
      writeMember(queryClient, boardId, member.email, member);
      void queryClient.invalidateQueries({ queryKey: boardKeys.all });
    },
  });
}

/** Removes a member; with `leaving`, the viewer themselves: the board leaves their list. */
export function useRemoveMember(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email }: { email: string; leaving?: boolean }) => removeMember(boardId, email),
    onSuccess: (_nothing, { email, leaving = false }) => {
      if (leaving) {
        removeBoard(queryClient, boardId);
        return;
      }
      writeMember(queryClient, boardId, email, null);
      void queryClient.invalidateQueries({ queryKey: boardKeys.all });
    },
  });
}

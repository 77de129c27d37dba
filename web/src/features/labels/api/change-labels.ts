import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateLabelBody, Label, LabelEnvelope, UpdateLabelBody } from '#shared/schemas/labels.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { sortLabels } from './get-labels.ts';
import { labelKeys } from './query-keys.ts';

/*
 * Creating, renaming, recolouring and deleting a board's labels (admins and members; the
 * server refuses the rest). The board's list is written from the answer at once; the tasks
 * that carry a changed label are asked again when the board's `board.updated` event arrives
 * (app/live-events.ts), in this tab as in every other.
 */

const labelsPath = (boardId: string) => `/boards/${encodeURIComponent(boardId)}/labels`;
const labelPath = (boardId: string, labelId: string) => `${labelsPath(boardId)}/${encodeURIComponent(labelId)}`;

/** `label` in the board's list (added or replaced, by name), or taken out (`null`). */
function writeLabel(queryClient: QueryClient, boardId: string, id: string, label: Label | null): void {
  queryClient.setQueryData<Label[]>(labelKeys.board(boardId), (labels) => {
    if (!labels) return labels;
    const others = labels.filter((l) => l._id !== id);
    return label ? sortLabels([...others, label]) : others;
  });
}

export function useCreateLabel(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateLabelBody) => {
      const envelope = await apiRequest<LabelEnvelope>(labelsPath(boardId), { method: 'POST', body });
      return envelope.data.label;
    },
    onSuccess: (label) => {
      writeLabel(queryClient, boardId, label._id, label);
    },
  });
}

export function useUpdateLabel(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ labelId, ...body }: UpdateLabelBody & { labelId: string }) => {
      const envelope = await apiRequest<LabelEnvelope>(labelPath(boardId, labelId), { method: 'PATCH', body });
      return envelope.data.label;
    },
    onSuccess: (label) => {
      writeLabel(queryClient, boardId, label._id, label);
    },
  });
}

export function useDeleteLabel(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (labelId: string) => {
      await apiRequest(labelPath(boardId, labelId), { method: 'DELETE', expectNoContent: true });
      return labelId;
    },
    onSuccess: (labelId) => {
      writeLabel(queryClient, boardId, labelId, null);
    },
  });
}

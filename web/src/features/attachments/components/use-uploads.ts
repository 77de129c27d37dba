import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { Attachment } from '#shared/schemas/attachments.ts';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { refetchAttachments, withAttachment } from '../api/get-attachments.ts';
import { attachmentKeys } from '../api/query-keys.ts';
import { isAbort, uploadAttachment, type UploadHandle } from '../api/upload-attachment.ts';

/** A file on its way: what its row shows. `error` set: it failed, and the row stays until dismissed. */
export interface UploadRow {
  id: string;
  name: string;
  sent: number;
  total: number;
  error: string | null;
}

/**
 * The section's uploads, each a row until it ends. The new attachment goes into the cached list
 * (one that came by the resumable protocol has the list asked again); a cancelled upload's row
 * goes; a failure stays on its row with the server's words. An upload under way keeps going if
 * the page is left: its file still lands in the list.
 */
export function useUploads(taskId: string) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<UploadRow[]>([]);
  const handles = useRef(new Map<string, UploadHandle>());

  const change = useCallback((id: string, patch: Partial<UploadRow>) => {
    setRows((shown) => shown.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  }, []);
  const remove = useCallback((id: string) => {
    handles.current.delete(id);
    setRows((shown) => shown.filter((row) => row.id !== id));
  }, []);

  const received = useCallback(
    (attachment: Attachment | null) => {
      if (attachment) queryClient.setQueryData<Attachment[]>(attachmentKeys.list(taskId), (list = []) => withAttachment(list, attachment));
      else void refetchAttachments(queryClient, taskId);
    },
    [queryClient, taskId],
  );

  const add = useCallback(
    (files: readonly File[]) => {
      const added = files.map((file) => ({ file, row: { id: crypto.randomUUID(), name: file.name, sent: 0, total: file.size, error: null } }));
      setRows((shown) => [...shown, ...added.map(({ row }) => row)]);
      for (const { file, row } of added) {
        const handle = uploadAttachment(taskId, file, (sent, total) => {
          change(row.id, { sent, total });
        });
        handles.current.set(row.id, handle);
        handle.done.then(
          (attachment) => {
            remove(row.id);
            received(attachment);
          },
          (error: unknown) => {
            handles.current.delete(row.id);
            // Cancelled: its row goes. Signed out: the session says so for every screen.
            if (isAbort(error) || isUnauthorized(error)) remove(row.id);
            else change(row.id, { error: errorText(error) });
          },
        );
      }
    },
    [taskId, change, remove, received],
  );

  const cancel = useCallback((id: string) => {
    handles.current.get(id)?.cancel();
  }, []);

  return { rows, add, cancel, dismiss: remove };
}

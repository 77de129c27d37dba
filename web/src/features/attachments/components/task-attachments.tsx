import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { INLINE_IMAGE_TYPES, type Attachment } from '#shared/schemas/attachments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { CloseButton } from '#web/components/close-button.tsx';
import { LoadingLine } from '#web/components/spinner.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { cx } from '#web/lib/cx.ts';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber, numberFormat } from '#web/lib/locale-format.ts';
import { useOnline } from '#web/lib/use-online.ts';
import { useAttachments } from '../api/get-attachments.ts';
import { AttachmentItem } from './attachment-item.tsx';
import { AttachmentViewer } from './attachment-viewer.tsx';
import { useUploads, type UploadRow } from './use-uploads.ts';
import './task-attachments.css';

/** The drag data type of files from the device (the HTML drag-and-drop standard's name). */
const FILES_TYPE = 'Files';

const isViewable = (attachment: Attachment) => (INLINE_IMAGE_TYPES as readonly string[]).includes(attachment.type);

/** Fields where a paste is text for them, not a file for the task. */
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'time']);
function takesPaste(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}

/**
 * A pasted screenshot comes as "image.png": named after the moment instead, so several stay
 * apart (in the language of the person who pasted it: the name is the file's from then on).
 */
function pastedName(file: File): File {
  if (file.name !== '' && file.name !== 'image.png') return file;
  const stamp = new Date().toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '.');
  const extension = file.type.split('/')[1]?.replace(/\W.*$/, '') ?? 'png';
  const name = t({ message: `Pasted image ${stamp}`, comment: 'The name given to a pasted image, with the date and time (the file’s extension follows)' });
  return new File([file], `${name}.${extension}`, { type: file.type });
}

const percent = (row: UploadRow) => (row.total === 0 ? 0 : Math.round((row.sent / row.total) * 100));

function UploadItem({ row, onCancel, onDismiss }: { row: UploadRow; onCancel: () => void; onDismiss: () => void }) {
  const { t } = useLingui();
  const { name } = row;
  if (row.error !== null) {
    return (
      <li className="upload upload--failed">
        <Alert
          tone="error"
          action={<CloseButton size={16} label={t`Dismiss ${name}`} onClick={onDismiss} />}
        >
          <strong className="upload__name" dir="auto">
            {name}
          </strong>{' '}
          {row.error}
        </Alert>
      </li>
    );
  }
  return (
    <li className="upload">
      <span className="upload__name" dir="auto">
        {name}
      </span>
      <progress className="upload__bar" max={100} value={percent(row)} aria-label={t`Uploading ${name}`} />
      <span className="upload__percent" aria-hidden="true">
        {numberFormat({ style: 'percent' }).format(percent(row) / 100)}
      </span>
      <Button size="sm" variant="ghost" aria-label={t`Cancel uploading ${name}`} onClick={onCancel}>
        <Trans>Cancel</Trans>
      </Button>
    </li>
  );
}

function LoadFailure({ error }: { error: unknown }) {
  const reason = errorText(error);
  return <Trans>Couldn’t load the attachments. {reason}</Trans>;
}

export interface TaskAttachmentsProps {
  task: Task;
  /** The person may change the task (the same rule as its other controls): adds files, sets the cover, is offered Delete. */
  canChange: boolean;
  /** Among those, who is offered Delete for a file, by its uploader's address (the uploader and the board's admins). */
  canDelete: (uploaderEmail: string) => boolean;
  /** Make an image the card's cover, or none (the task's own change, made by the app). */
  onCover: (attachment: Attachment | null) => void;
}

/**
 * The task's files. Added by the "Add files" button, by dropping files on the section, or by
 * pasting an image anywhere on the page but in a text field; each upload is a row with its
 * progress and Cancel until it ends, a failure stays there with the server's words. Images show
 * as thumbnails that open the viewer; every file is a link to download it. Offline nothing can be
 * added or deleted (a file never waits on the device), and what was listed stays listed. The
 * task's count and cover follow its own events (`task.updated`), as its other fields do.
 */
export function TaskAttachments({ task, canChange, canDelete, onCover }: TaskAttachmentsProps) {
  const taskId = task._id;
  const online = useOnline();
  const attachments = useAttachments(taskId, task.attachmentCount);
  const uploads = useUploads(taskId);
  const { add } = uploads;
  const canAdd = canChange && online;
  const headingId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [dragDepth, setDragDepth] = useState(0);
  const [viewing, setViewing] = useState<string | null>(null);

  const list = attachments.data ?? [];
  const images = list.filter((a) => isViewable(a) && a.thumbnailUrl !== undefined);
  const viewIndex = images.findIndex((a) => a._id === viewing);
  const coverId = task.cover?.attachmentId ?? null;
  const count = attachments.data?.length ?? task.attachmentCount;
  const shownCount = formatNumber(count);
  const { t } = useLingui();

  useEffect(() => {
    if (!canAdd) return;
    const onPaste = (event: ClipboardEvent) => {
      if (takesPaste(event.target)) return;
      const files = Array.from(event.clipboardData?.files ?? []).filter((file) => file.type.startsWith('image/'));
      if (files.length === 0) return;
      event.preventDefault();
      add(files.map(pastedName));
    };
    document.addEventListener('paste', onPaste);
    return () => {
      document.removeEventListener('paste', onPaste);
    };
  }, [canAdd, add]);

  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes(FILES_TYPE);
  const dropProps = canAdd
    ? {
        onDragEnter: (event: DragEvent) => {
          if (!carriesFiles(event)) return;
          event.preventDefault();
          setDragDepth((depth) => depth + 1);
        },
        onDragOver: (event: DragEvent) => {
          if (!carriesFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        },
        onDragLeave: (event: DragEvent) => {
          if (carriesFiles(event)) setDragDepth((depth) => Math.max(0, depth - 1));
        },
        onDrop: (event: DragEvent) => {
          if (!carriesFiles(event)) return;
          event.preventDefault();
          setDragDepth(0);
          add(Array.from(event.dataTransfer.files));
        },
      }
    : {};

  /** Where focus goes when what held it goes (a deleted file, a dismissed failure). */
  const afterDelete = useCallback(() => addButtonRef.current ?? headingRef.current, []);

  let body;
  if (attachments.isError && attachments.data === undefined) {
    body = (
      <RetryAlert onRetry={() => void attachments.refetch()}>
        <LoadFailure error={attachments.error} />
      </RetryAlert>
    );
  } else if (attachments.data === undefined && task.attachmentCount > 0) {
    body =
      attachments.fetchStatus === 'paused' ? null : (
        <LoadingLine>
          <Trans>Loading attachments…</Trans>
        </LoadingLine>
      );
  } else if (list.length === 0) {
    body = (
      <p className="attachments__empty">
        <Trans>No attachments yet.</Trans>
      </p>
    );
  } else {
    body = (
      <ul className="attachments__list">
        {list.map((attachment) => (
          <AttachmentItem
            key={attachment._id}
            taskId={taskId}
            attachment={attachment}
            viewable={isViewable(attachment)}
            isCover={attachment._id === coverId}
            canChange={canChange}
            canDelete={online && canDelete(attachment.by.email)}
            onView={() => {
              setViewing(attachment._id);
            }}
            onCover={onCover}
            afterDelete={afterDelete}
          />
        ))}
      </ul>
    );
  }

  return (
    <section className={cx('task-section attachments', dragDepth > 0 && 'attachments--dropping')} aria-labelledby={headingId} {...dropProps}>
      <div className="attachments__head">
        <h3 id={headingId} ref={headingRef} tabIndex={-1}>
          {count > 0 ? (
            <Trans>
              Attachments <span className="attachments__count">({shownCount})</span>
            </Trans>
          ) : (
            <Trans>Attachments</Trans>
          )}
        </h3>
        {canAdd ? (
          <>
            <Button
              ref={addButtonRef}
              size="sm"
              variant="secondary"
              onClick={() => {
                inputRef.current?.click();
              }}
            >
              <Trans>Add files</Trans>
            </Button>
            <input
              ref={inputRef}
              type="file"
              multiple
              hidden
              aria-label={t`Files to attach`}
              onChange={(event) => {
                const files = Array.from(event.target.files ?? []);
                // The same file can be picked again after this.
                event.target.value = '';
                if (files.length > 0) add(files);
              }}
            />
          </>
        ) : null}
      </div>
      {!online ? (
        <p className="attachments__offline" role="status">
          <Trans>Attachments need a connection</Trans>
        </p>
      ) : canAdd ? (
        <p className="attachments__hint">{dragDepth > 0 ? <Trans>Drop the files to attach them.</Trans> : <Trans>Drop files here or paste an image.</Trans>}</p>
      ) : null}
      {uploads.rows.length > 0 ? (
        <ul className="attachments__uploads" aria-label={t`Uploads`}>
          {uploads.rows.map((row) => (
            <UploadItem
              key={row.id}
              row={row}
              onCancel={() => {
                uploads.cancel(row.id);
              }}
              onDismiss={() => {
                uploads.dismiss(row.id);
                // The row and its button go: focus stays in the section.
                afterDelete()?.focus();
              }}
            />
          ))}
        </ul>
      ) : null}
      {body}
      {viewIndex >= 0 ? (
        <AttachmentViewer
          images={images}
          index={viewIndex}
          onIndex={(index) => {
            setViewing(images[index]?._id ?? null);
          }}
          onClose={() => {
            setViewing(null);
          }}
        />
      ) : null}
    </section>
  );
}

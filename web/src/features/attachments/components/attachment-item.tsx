import { Trans, useLingui } from '@lingui/react/macro';
import type { Attachment } from '#shared/schemas/attachments.ts';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { useState } from 'react';
import { useDeleteAttachment } from '../api/delete-attachment.ts';
import { formatSize, typeInWords } from './attachment-format.ts';

function FileIcon() {
  return (
    <svg className="attachment__icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
      <path fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" d="M6 2.75h8l4.25 4.25v14.25H6z" />
      <path fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" d="M13.75 2.75v4.5h4.5" />
    </svg>
  );
}

export interface AttachmentItemProps {
  taskId: string;
  attachment: Attachment;
  /** Shown in the viewer (a raster image the browser shows inline). */
  viewable: boolean;
  isCover: boolean;
  /** Cover and Delete are offered (the person may change the task, and is online for Delete). */
  canChange: boolean;
  canDelete: boolean;
  onView: () => void;
  onCover: (attachment: Attachment | null) => void;
  /** Where focus goes once the item is deleted. */
  afterDelete: () => HTMLElement | null;
}

/**
 * One file: an image's thumbnail (which opens the viewer) or a file's icon, its name as a link to
 * the file, what it is and its size; "Make cover"/"Remove cover" for an image with a thumbnail,
 * and Delete after a confirmation, which shows the server's refusal if it refuses.
 */
export function AttachmentItem({ taskId, attachment, viewable, isCover, canChange, canDelete, onView, onCover, afterDelete }: AttachmentItemProps) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAttachment(taskId);
  const { name: nameText, thumbnailUrl, width, height } = attachment;
  // Isolated in the sentence: the name reads in its own direction (decision 180).
  const name = <bdi>{nameText}</bdi>;
  const { t } = useLingui();

  return (
    <li className="attachment">
      {viewable && thumbnailUrl ? (
        <button type="button" className="attachment__thumb" onClick={onView}>
          <img src={thumbnailUrl} alt={nameText} width={width} height={height} loading="lazy" />
        </button>
      ) : (
        <span className="attachment__file">
          <FileIcon />
        </span>
      )}
      <div className="attachment__text">
        <a className="attachment__name" dir="auto" href={attachment.url} {...(viewable ? { target: '_blank', rel: 'noopener' } : { download: nameText })}>
          {nameText}
        </a>
        <p className="attachment__meta">
          {typeInWords(attachment.type)} · {formatSize(attachment.size)}
          {isCover ? (
            <span className="attachment__cover-mark">
              {' · '}
              <Trans comment="Marks the image shown as the card’s cover">Cover</Trans>
            </span>
          ) : null}
        </p>
        <p className="attachment__by">{attachment.by.fullName}</p>
        {canChange ? (
          <div className="attachment__actions">
            {viewable && thumbnailUrl ? (
              <Button
                size="sm"
                variant="ghost"
                aria-label={isCover ? t`Remove cover ${{ name: nameText }}` : t`Make cover ${{ name: nameText }}`}
                onClick={() => {
                  onCover(isCover ? null : attachment);
                }}
              >
                {isCover ? <Trans>Remove cover</Trans> : <Trans>Make cover</Trans>}
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                size="sm"
                variant="danger-ghost"
                aria-label={t`Delete ${{ name: nameText }}`}
                onClick={() => {
                  setConfirming(true);
                }}
              >
                <Trans comment="Deletes an attached file">Delete</Trans>
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title={t`Delete this file?`}
        body={<Trans>“{name}” will be removed from the task for everyone. This cannot be undone.</Trans>}
        confirmLabel={t`Delete file`}
        busyLabel={t`Deleting…`}
        cancelLabel={t`Keep it`}
        // Open until the server answers: a refusal (only the uploader and the board's admins may) is shown in it.
        onConfirm={() => remove.mutateAsync(attachment._id)}
        fallbackFocus={afterDelete}
      />
    </li>
  );
}

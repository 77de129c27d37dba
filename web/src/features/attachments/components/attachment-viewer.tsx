import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import type { Attachment } from '#shared/schemas/attachments.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { formatNumber } from '#web/lib/locale-format.ts';
import { inlineStep } from '#web/lib/direction.ts';

/**
 * The task's images one at a time, full size: its name, "n of m", Previous and Next (and the
 * arrow keys; both go round from the last to the first). Esc or Close ends it, and focus goes
 * back to the thumbnail that opened it (the dialog's rule).
 */
export function AttachmentViewer({
  images,
  index,
  onIndex,
  onClose,
}: {
  images: readonly Attachment[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const count = images.length;
  const image = images[index];
  const { t } = useLingui();
  const step = (by: number) => {
    onIndex((index + by + count) % count);
  };
  useEffect(() => {
    if (count < 2) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // The key pointing at Previous on screen goes back (right to left, Previous is on the right).
      const by = inlineStep(event.key);
      if (by === 0) return;
      event.preventDefault();
      onIndex((index + by + count) % count);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
    };
  }, [count, index, onIndex]);

  if (!image) return null;
  const position = formatNumber(index + 1);
  const total = formatNumber(count);
  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      className="dialog--viewer"
      title={<span className="viewer__name">{image.name}</span>}
      description={t({ message: `${position} of ${total}`, comment: 'Which image of the task’s images the viewer shows' })}
      closeLabel={t`Close viewer`}
    >
      <figure className="viewer">
        <img className="viewer__image" src={image.url} alt={image.name} width={image.width} height={image.height} />
        <figcaption className="viewer__actions">
          {count > 1 ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                step(-1);
              }}
            >
              <Trans comment="The previous image">Previous</Trans>
            </Button>
          ) : null}
          <a className="viewer__download" href={image.url} download={image.name}>
            <Trans>Download</Trans>
          </a>
          {count > 1 ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                step(1);
              }}
            >
              <Trans comment="The next image">Next</Trans>
            </Button>
          ) : null}
        </figcaption>
      </figure>
    </Dialog>
  );
}

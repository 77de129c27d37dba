import { useEffect } from 'react';
import type { Attachment } from '#shared/schemas/attachments.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
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
  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      className="dialog--viewer"
      title={<span className="viewer__name">{image.name}</span>}
      description={`${String(index + 1)} of ${String(count)}`}
      closeLabel="Close viewer"
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
              Previous
            </Button>
          ) : null}
          <a className="viewer__download" href={image.url} download={image.name}>
            Download
          </a>
          {count > 1 ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                step(1);
              }}
            >
              Next
            </Button>
          ) : null}
        </figcaption>
      </figure>
    </Dialog>
  );
}

import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { describeRepeat } from '#shared/repeat.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { formatNumber } from '#web/lib/locale-format.ts';

function ChecklistIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <rect x="2.5" y="2.5" width="11" height="11" rx="2" fill="none" stroke="currentColor" strokeWidth="1.4" />
      <path fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" d="m5.2 8.2 1.9 1.9 3.7-4.2" />
    </svg>
  );
}

/** A 14px line drawing, as the card's marks use them. */
function LineIcon({ d, stroke }: { d: string; stroke: string }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path fill="none" stroke="currentColor" strokeWidth={stroke} strokeLinecap="round" strokeLinejoin="round" d={d} />
    </svg>
  );
}

const PAPER_CLIP = 'm13 7.5-5.1 5.1a3.2 3.2 0 0 1-4.5-4.5l5.6-5.6a2.1 2.1 0 0 1 3 3L6.4 11a1.1 1.1 0 0 1-1.5-1.5L10 4.4';
const REPEAT = 'M2.5 7V6a2.5 2.5 0 0 1 2.5-2.5h7.5M10.5 1.5l2 2-2 2M13.5 9v1a2.5 2.5 0 0 1-2.5 2.5H3.5M5.5 14.5l-2-2 2-2';

/** A task's checklist progress: "2/5", read as "2 of 5 checklist items done"; nothing without items. */
export function ChecklistCount({ counts }: { counts: Task['checklist'] }) {
  const { t } = useLingui();
  const { done, total } = counts;
  if (total === 0) return null;
  const doneCount = formatNumber(done);
  const totalCount = formatNumber(total);
  return (
    <>
      <span aria-hidden="true">
        {doneCount}/{totalCount}
      </span>
      <span className="visually-hidden">
        {t({
          message: plural(total, { one: `${doneCount} of # checklist item done`, other: `${doneCount} of # checklist items done` }),
          comment: 'A task’s checklist progress (on a card, in the table), as screen readers say it (shown as “2/5”)',
        })}
      </span>
    </>
  );
}

/**
 * A card's checklist progress (ChecklistCount), its number of files
 * (a paper clip and "3", read as "3 attachments") and repeat mark (its interval in words), on the
 * card's top line so the card grows no taller.
 */
export function TaskCardMarks({ task }: { task: Pick<Task, 'checklist' | 'repeat' | 'attachmentCount'> }) {
  const { done, total } = task.checklist;
  const files = task.attachmentCount;
  const { t } = useLingui();
  if (total === 0 && files === 0 && !task.repeat) return null;
  const attachments = t({ message: plural(files, { one: '# attachment', other: '# attachments' }), comment: 'A card’s number of attached files' });
  return (
    <span className="task-card__marks">
      {total > 0 ? (
        <span className={done === total ? 'task-card__mark task-card__mark--complete' : 'task-card__mark'}>
          <ChecklistIcon />
          <ChecklistCount counts={task.checklist} />
        </span>
      ) : null}
      {files > 0 ? (
        <span className="task-card__mark" title={attachments}>
          <LineIcon d={PAPER_CLIP} stroke="1.4" />
          <span aria-hidden="true">{formatNumber(files)}</span>
          <span className="visually-hidden">{attachments}</span>
        </span>
      ) : null}
      {task.repeat ? (
        <span className="task-card__mark" title={describeRepeat(task.repeat)}>
          <LineIcon d={REPEAT} stroke="1.5" />
          <span className="visually-hidden">{describeRepeat(task.repeat)}</span>
        </span>
      ) : null}
    </span>
  );
}

import { describeRepeat } from '#shared/repeat.ts';
import type { Task } from '#shared/schemas/tasks.ts';

function ChecklistIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <rect x="2.5" y="2.5" width="11" height="11" rx="2" fill="none" stroke="currentColor" strokeWidth="1.4" />
      <path fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" d="m5.2 8.2 1.9 1.9 3.7-4.2" />
    </svg>
  );
}

function RepeatIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M2.5 7V6a2.5 2.5 0 0 1 2.5-2.5h7.5M10.5 1.5l2 2-2 2M13.5 9v1a2.5 2.5 0 0 1-2.5 2.5H3.5M5.5 14.5l-2-2 2-2"
      />
    </svg>
  );
}

/**
 * A card's checklist progress ("2/5", read as "2 of 5 checklist items done") and repeat mark
 * (its interval in words), on the card's top line so the card grows no taller.
 */
export function TaskCardMarks({ task }: { task: Pick<Task, 'checklist' | 'repeat'> }) {
  const { done, total } = task.checklist;
  if (total === 0 && !task.repeat) return null;
  return (
    <span className="task-card__marks">
      {total > 0 ? (
        <span className={done === total ? 'task-card__mark task-card__mark--complete' : 'task-card__mark'}>
          <ChecklistIcon />
          <span aria-hidden="true">
            {done}/{total}
          </span>
          <span className="visually-hidden">
            {done} of {total} checklist items done
          </span>
        </span>
      ) : null}
      {task.repeat ? (
        <span className="task-card__mark" title={describeRepeat(task.repeat)}>
          <RepeatIcon />
          <span className="visually-hidden">{describeRepeat(task.repeat)}</span>
        </span>
      ) : null}
    </span>
  );
}

import { useLingui } from '@lingui/react/macro';
import { Outlet } from 'react-router';
import { TaskBoard } from '#web/features/tasks/components/task-board.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { NarrowBoardSwitcher } from '../board-scope.tsx';

/** "All my tasks": every task the viewer sees, on every board. */
export function TasksPage() {
  const { t } = useLingui();
  useDocumentTitle(t({ message: 'Tasks', comment: 'The title of the page of all one’s tasks' }));
  return (
    <div className="page page--board">
      <TaskBoard headingExtra={<NarrowBoardSwitcher />} />
      {/* /tasks/:id on a wide screen: the task panel over the board. */}
      <Outlet />
    </div>
  );
}

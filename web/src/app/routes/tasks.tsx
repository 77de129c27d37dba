import { Outlet } from 'react-router';
import { TaskBoard } from '#web/features/tasks/components/task-board.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export function TasksPage() {
  useDocumentTitle('Tasks');
  return (
    <div className="page page--board">
      <TaskBoard />
      {/* /tasks/:id on a wide screen: the task panel over the board. */}
      <Outlet />
    </div>
  );
}

import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useMatch } from 'react-router';
import type { Board } from '#shared/schemas/boards.ts';
import { Button } from '#web/components/button.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { cx } from '#web/lib/cx.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useBoards } from '../api/get-boards.ts';
import { NewBoardDialog } from './new-board-dialog.tsx';
import './boards.css';

/** The board whose address is open (`/boards/:id…`), or null. */
function useBoardOnScreen(): string | null {
  const match = useMatch('/boards/:boardId/*');
  return match?.params.boardId ?? null;
}

/** The board's open tasks, as its count shows them: "7" on screen, "7 open" to assistive technology. */
function OpenCount({ board }: { board: Board }) {
  const { t } = useLingui();
  const open = board.counts.todo;
  const shown = formatNumber(open);
  return (
    <span className="board-list__count" title={t({ message: plural(open, { one: `${shown} open`, other: `${shown} open` }), comment: 'How many tasks of a board are not done yet' })}>
      <Plural
        value={open}
        // Elements, not fragments: Lingui puts an element's words in the message, a fragment whole as a value.
        one={
          <span>
            {shown}
            <span className="visually-hidden"> open</span>
          </span>
        }
        other={
          <span>
            {shown}
            <span className="visually-hidden"> open</span>
          </span>
        }
      />
    </span>
  );
}

/**
 * "All my tasks", then every board the viewer is on with its open tasks, then "New board".
 * The page on screen is marked `aria-current="page"`. `onNavigate`: a link was followed (the
 * menu closes).
 */
export function BoardList({ onNavigate, onNewBoard }: { onNavigate?: () => void; onNewBoard: () => void }) {
  const boards = useBoards();
  const onScreen = useBoardOnScreen();
  const onAllTasks = useMatch('/tasks/*') !== null;
  return (
    <div className="board-list">
      <ul className="board-list__items">
        <li>
          <Link
            to="/tasks"
            className="board-list__link"
            aria-current={onAllTasks ? 'page' : undefined}
            onClick={onNavigate}
          >
            <span className="board-list__name">
              <Trans>All my tasks</Trans>
            </span>
          </Link>
        </li>
        {boards.data?.map((board) => (
          <li key={board._id}>
            <Link
              to={`/boards/${encodeURIComponent(board._id)}`}
              className="board-list__link"
              aria-current={onScreen === board._id ? 'page' : undefined}
              onClick={onNavigate}
            >
              <span className="board-list__name" dir="auto">
                {displayName(board.name)}
              </span>
              <OpenCount board={board} />
            </Link>
          </li>
        ))}
      </ul>
      {boards.isPending ? (
        <p className="board-list__status" role="status">
          <Spinner /> <Trans>Loading boards…</Trans>
        </p>
      ) : null}
      {boards.isError ? (
        <p className="board-list__status">
          <Trans>Couldn’t load your boards.</Trans>{' '}
          <Button size="sm" variant="ghost" onClick={() => void boards.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </p>
      ) : null}
      <Button size="sm" variant="ghost" className="board-list__new" onClick={onNewBoard} aria-haspopup="dialog" icon={<PlusIcon />}>
        <Trans>New board</Trans>
      </Button>
    </div>
  );
}

function PlusIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" d="M8 3v10M3 8h10" />
    </svg>
  );
}

/** Wide screens: the switcher as a column beside every signed-in page. */
export function BoardSidebar() {
  const [creating, setCreating] = useState(false);
  const { t } = useLingui();
  return (
    <nav className="board-sidebar" aria-label={t`Boards`}>
      <h2 className="board-sidebar__title">
        <Trans>Boards</Trans>
      </h2>
      <BoardList
        onNewBoard={() => {
          setCreating(true);
        }}
      />
      <NewBoardDialog
        open={creating}
        onClose={() => {
          setCreating(false);
        }}
      />
    </nav>
  );
}

/**
 * Narrow screens: the switcher as a disclosure opened from the button beside the board's name
 * (the WAI-ARIA disclosure pattern: a list of links, not an application menu). Esc or a click
 * outside closes it and focus goes back to the button.
 */
export function BoardMenuButton({ className }: { className?: string }) {
  // Open on the page where it was opened: any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const { t } = useLingui();
  const { pathname } = useLocation();
  const open = openOn === pathname;
  const setOpen = (next: boolean) => {
    setOpenOn(next ? pathname : null);
  };

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('[aria-current="page"], a')?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpenOn(null);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div
      className={cx('board-menu', className)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close();
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="board-menu__button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t`Switch board`}
        onClick={() => {
          setOpen(!open);
        }}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <path fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" d="m4 6 4 4 4-4" />
        </svg>
      </button>
      <div ref={panelRef} id={panelId} className="board-menu__panel" hidden={!open}>
        <nav aria-label={t`Boards`}>
          <BoardList
            onNavigate={() => {
              setOpen(false);
            }}
            onNewBoard={() => {
              setOpen(false);
              setCreating(true);
            }}
          />
        </nav>
      </div>
      <NewBoardDialog
        open={creating}
        onClose={() => {
          setCreating(false);
        }}
      />
    </div>
  );
}

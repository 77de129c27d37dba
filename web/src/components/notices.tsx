import { useLingui } from '@lingui/react/macro';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AlertIcon, type Tone } from './alert.tsx';
import { CloseButton } from './close-button.tsx';
import './notices.css';

/**
 * App-wide messages that outlive the screen that caused them (session expired, account
 * created, a failed delete or logout). Errors stay until dismissed; success and information
 * fade after a while, but never while the pointer or focus is on them (WCAG 2.2.1).
 */
export interface Notice {
  id: number;
  tone: Tone;
  text: string;
}

interface NoticeApi {
  notify: (tone: Tone, text: string) => void;
  dismiss: (id: number) => void;
  clear: () => void;
}

const NoticeContext = createContext<NoticeApi | null>(null);
const NoticeListContext = createContext<readonly Notice[]>([]);

const MAX_NOTICES = 3;
export const NOTICE_TIMEOUT_MS = 8_000;

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<readonly Notice[]>([]);
  const nextId = useRef(1);

  const notify = useCallback((tone: Tone, text: string) => {
    const id = nextId.current++;
    setNotices((current) => [...current.filter((n) => n.text !== text), { id, tone, text }].slice(-MAX_NOTICES));
  }, []);
  const dismiss = useCallback((id: number) => {
    setNotices((current) => current.filter((n) => n.id !== id));
  }, []);
  const clear = useCallback(() => {
    setNotices([]);
  }, []);

  const api = useMemo(() => ({ notify, dismiss, clear }), [notify, dismiss, clear]);
  return (
    <NoticeContext value={api}>
      <NoticeListContext value={notices}>{children}</NoticeListContext>
    </NoticeContext>
  );
}

export function useNotices(): NoticeApi {
  const api = use(NoticeContext);
  if (!api) throw new Error('useNotices() needs a <NoticeProvider>.');
  return api;
}

function NoticeItem({ notice, onDismiss }: { notice: Notice; onDismiss: (id: number) => void }) {
  const { t } = useLingui();
  const [paused, setPaused] = useState(false);
  const persistent = notice.tone === 'error';

  useEffect(() => {
    if (persistent || paused) return;
    const timer = window.setTimeout(() => {
      onDismiss(notice.id);
    }, NOTICE_TIMEOUT_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [persistent, paused, notice.id, onDismiss]);

  return (
    <li
      className={`notice notice--${notice.tone}`}
      onPointerEnter={() => {
        setPaused(true);
      }}
      onPointerLeave={() => {
        setPaused(false);
      }}
      onFocus={() => {
        setPaused(true);
      }}
      onBlur={() => {
        setPaused(false);
      }}
    >
      <AlertIcon tone={notice.tone} />
      <p className="notice__text" role={notice.tone === 'error' ? 'alert' : 'status'}>
        {notice.text}
      </p>
      <CloseButton
        className="notice__close"
        label={t`Dismiss notification`}
        size={16}
        onClick={() => {
          onDismiss(notice.id);
        }}
      />
    </li>
  );
}

/**
 * Where notices appear: a fixed stack in the corner (bottom edge on small screens). `children`
 * (a message that stays until acted on, such as the app's update prompt) come last, nearest the edge.
 */
export function NoticeRegion({ children }: { children?: ReactNode }) {
  const notices = use(NoticeListContext);
  const { dismiss } = useNotices();
  const { t } = useLingui();
  return (
    <section className="notices" aria-label={t({ message: 'Messages', comment: 'The region where the app’s notices appear' })}>
      <ol className="notices__list">
        {notices.map((notice) => (
          <NoticeItem key={notice.id} notice={notice} onDismiss={dismiss} />
        ))}
      </ol>
      {children}
    </section>
  );
}

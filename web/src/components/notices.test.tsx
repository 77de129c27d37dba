import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTICE_TIMEOUT_MS, NoticeProvider, NoticeRegion, useNotices } from './notices.tsx';

function Trigger({ tone, text }: { tone: 'error' | 'success' | 'info'; text: string }) {
  const { notify } = useNotices();
  return (
    <button
      type="button"
      onClick={() => {
        notify(tone, text);
      }}
    >
      {`notify ${text}`}
    </button>
  );
}

function renderNotices() {
  return render(
    <I18nProvider i18n={i18n}>
      <NoticeProvider>
        <Trigger tone="success" text="Saved." />
        <Trigger tone="error" text="It broke." />
        <NoticeRegion />
      </NoticeProvider>
    </I18nProvider>,
  );
}

function press(name: string) {
  act(() => {
    screen.getByRole('button', { name }).click();
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('notices', () => {
  it('uses role="status" for success and role="alert" for errors', () => {
    renderNotices();
    press('notify Saved.');
    press('notify It broke.');
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    expect(screen.getByRole('alert')).toHaveTextContent('It broke.');
  });

  it('lets success fade after a while but keeps errors until dismissed', () => {
    vi.useFakeTimers();
    renderNotices();
    press('notify Saved.');
    press('notify It broke.');
    act(() => {
      vi.advanceTimersByTime(NOTICE_TIMEOUT_MS + 100);
    });
    expect(screen.queryByText('Saved.')).not.toBeInTheDocument();
    expect(screen.getByText('It broke.')).toBeInTheDocument();
  });

  it('shows the same text once, however often it is sent', () => {
    renderNotices();
    for (let i = 0; i < 3; i++) press('notify It broke.');
    expect(screen.getAllByText('It broke.')).toHaveLength(1);
  });
});

import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SKIP_WAITING } from './messages.ts';

/*
 * The update flow of register-service-worker.ts with the prompt, against a stand-in for the
 * browser's ServiceWorkerContainer: the decisions (offer, reload only after the click) are
 * ours; that a real worker waits, activates and takes control is covered in e2e/pwa.spec.ts.
 */

class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  readonly postMessage = vi.fn();
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  active: FakeWorker | null = null;
  readonly update = vi.fn(() => Promise.resolve());
  /** A new worker found and installed (it then waits while another is active). */
  install(): FakeWorker {
    const worker = new FakeWorker();
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    worker.become('installed');
    return worker;
  }
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null;
  readonly registration: FakeRegistration;
  constructor(controller: FakeWorker | null, registration: FakeRegistration) {
    super();
    this.controller = controller;
    this.registration = registration;
  }
  readonly register = vi.fn(() => Promise.resolve(this.registration));
  changeController() {
    this.controller = new FakeWorker();
    this.dispatchEvent(new Event('controllerchange'));
  }
}

async function setUp({ controlled, active = controlled, waiting = false }: { controlled: boolean; active?: boolean; waiting?: boolean }) {
  // A fresh store per test: the prompt reads module state.
  vi.resetModules();
  const { registerServiceWorker } = await import('./register-service-worker.ts');
  const { UpdatePrompt } = await import('./update-prompt.tsx');
  const registration = new FakeRegistration();
  if (active) registration.active = new FakeWorker();
  if (waiting) registration.waiting = new FakeWorker();
  const container = new FakeContainer(controlled ? new FakeWorker() : null, registration);
  const reload = vi.fn();
  let time = 1_000_000;
  const clock = { advance: (ms: number) => (time += ms) };
  await registerServiceWorker({ container: container as unknown as ServiceWorkerContainer, reload, now: () => time });
  render(
    <I18nProvider i18n={i18n}>
      <UpdatePrompt />
    </I18nProvider>,
  );
  return { container, registration, reload, clock };
}

const prompt = () => screen.queryByText('A new version is available.');

beforeEach(() => {
  vi.spyOn(window, 'setInterval').mockReturnValue(0);
});

describe('registering the service worker', () => {
  it('registers /sw.js for the whole app', async () => {
    const { container } = await setUp({ controlled: false });
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('the first worker takes over quietly: no prompt, no reload', async () => {
    const { container, registration, reload } = await setUp({ controlled: false });
    act(() => {
      registration.install();
      registration.active = registration.installing;
      container.changeController();
    });
    expect(prompt()).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('a new version', () => {
  it('is offered once it waits, and loads only after the click on Reload', async () => {
    const { container, registration, reload } = await setUp({ controlled: true });
    let worker!: FakeWorker;
    act(() => {
      worker = registration.install();
    });
    expect(screen.getByRole('status')).toHaveTextContent('A new version is available.');
    expect(worker.postMessage).not.toHaveBeenCalled();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Reload' }));
    expect(worker.postMessage).toHaveBeenCalledWith({ type: SKIP_WAITING });
    expect(reload).not.toHaveBeenCalled();

    act(() => {
      worker.become('activated');
      container.changeController();
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('that was already waiting when the page loaded is offered at once', async () => {
    const { registration } = await setUp({ controlled: true, waiting: true });
    expect(prompt()).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reload' }));
    expect(registration.waiting?.postMessage).toHaveBeenCalledWith({ type: SKIP_WAITING });
  });

  it('taken in another tab is offered here as a reload, never done by itself', async () => {
    const { container, reload } = await setUp({ controlled: true });
    act(() => {
      container.changeController();
    });
    expect(prompt()).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('update checks', () => {
  it('look for a new version when the page comes back into view, at most once an hour', async () => {
    const { registration, clock } = await setUp({ controlled: true });
    const show = () => {
      document.dispatchEvent(new Event('visibilitychange'));
    };
    show();
    expect(registration.update).not.toHaveBeenCalled();
    clock.advance(60 * 60 * 1000);
    show();
    window.dispatchEvent(new Event('focus'));
    expect(registration.update).toHaveBeenCalledTimes(1);
  });
});

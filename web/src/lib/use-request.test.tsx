import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useRequest } from './use-request.ts';

/** A request whose answer the test gives, one per call. */
function controlled() {
  const answers: { resolve: (value: string) => void; reject: (error: unknown) => void; sent: Promise<string> }[] = [];
  const send = (_variables: number) => {
    const handlers = Promise.withResolvers<string>();
    answers.push({ resolve: handlers.resolve, reject: handlers.reject, sent: handlers.promise });
    return handlers.promise;
  };
  return { send, answers };
}

describe('useRequest', () => {
  it('is pending while sent, then holds the answer and calls onSuccess', async () => {
    const { send, answers } = controlled();
    const { result } = renderHook(() => useRequest(send));
    const onSuccess = vi.fn();
    expect(result.current.isPending).toBe(false);
    act(() => {
      result.current.mutate(1, { onSuccess });
    });
    expect(result.current.isPending).toBe(true);
    await act(async () => {
      answers[0]?.resolve('done');
      await Promise.resolve();
    });
    expect(result.current).toMatchObject({ isPending: false, isSuccess: true, data: 'done', error: null });
    expect(onSuccess).toHaveBeenCalledWith('done');
  });

  it('holds the error and calls onError', async () => {
    const { send, answers } = controlled();
    const { result } = renderHook(() => useRequest(send));
    const onError = vi.fn();
    act(() => {
      result.current.mutate(1, { onError });
    });
    const failure = new Error('no');
    await act(async () => {
      answers[0]?.reject(failure);
      await Promise.resolve();
    });
    expect(result.current).toMatchObject({ isPending: false, isError: true, error: failure });
    expect(onError).toHaveBeenCalledWith(failure);
  });

  it('keeps the newer call’s answer when an older one comes after it', async () => {
    const { send, answers } = controlled();
    const { result } = renderHook(() => useRequest(send));
    const first = vi.fn();
    act(() => {
      result.current.mutate(1, { onSuccess: first });
      result.current.mutate(2);
    });
    await act(async () => {
      answers[1]?.resolve('newer');
      await Promise.resolve();
    });
    await act(async () => {
      answers[0]?.resolve('older');
      await Promise.resolve();
    });
    expect(result.current.data).toBe('newer');
    expect(first).not.toHaveBeenCalled();
  });

  it('calls nothing once the component is gone', async () => {
    const { send, answers } = controlled();
    const { result, unmount } = renderHook(() => useRequest(send));
    const onSuccess = vi.fn();
    act(() => {
      result.current.mutate(1, { onSuccess });
    });
    unmount();
    answers[0]?.resolve('late');
    // The hook's handlers were attached to the same promise first, so they have run once this resolves.
    await answers[0]?.sent;
    expect(onSuccess).not.toHaveBeenCalled();
  });
});

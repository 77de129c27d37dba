import { useCallback, useEffect, useRef, useState } from 'react';

/*
 * One request a form sends (sign in, sign up, a code, a password reset), for the screens a
 * signed-out visitor sees. They run before the signed-in part of the app, and with it TanStack
 * Query, is downloaded: /login stays within its budget (docs/decisions/168-signed-out-requests.md).
 * It keeps the shape of TanStack's useMutation that those forms use, so a form reads the same
 * either way: `mutate(variables, { onSuccess, onError })`, `isPending`, `data`, `error`.
 */

type RequestState<TData> =
  | { status: 'idle'; data: undefined; error: null }
  | { status: 'pending'; data: undefined; error: null }
  | { status: 'success'; data: TData; error: null }
  | { status: 'error'; data: undefined; error: unknown };

export interface RequestCallbacks<TData> {
  onSuccess?: (data: TData) => void;
  onError?: (error: unknown) => void;
}

/** What the form reads: `isSuccess` narrows `data`, as TanStack's result does. */
export type Request<TData, TVariables> = {
  /** Sends it; the callbacks run only while the component is still there, as TanStack's do. */
  mutate: (variables: TVariables, callbacks?: RequestCallbacks<TData>) => void;
} & (
  | { isPending: false; isSuccess: false; isError: false; data: undefined; error: null }
  | { isPending: true; isSuccess: false; isError: false; data: undefined; error: null }
  | { isPending: false; isSuccess: true; isError: false; data: TData; error: null }
  | { isPending: false; isSuccess: false; isError: true; data: undefined; error: unknown }
);

const IDLE = { status: 'idle', data: undefined, error: null } as const;

/** A request sent on demand; a newer call's answer replaces an older one's, never the other way round. */
export function useRequest<TData, TVariables>(send: (variables: TVariables) => Promise<TData>): Request<TData, TVariables> {
  const [state, setState] = useState<RequestState<TData>>(IDLE);
  const latest = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const mutate = useCallback(
    (variables: TVariables, callbacks: RequestCallbacks<TData> = {}) => {
      const call = ++latest.current;
      setState({ status: 'pending', data: undefined, error: null });
      const current = () => mounted.current && call === latest.current;
      send(variables).then(
        (data) => {
          if (!current()) return;
          setState({ status: 'success', data, error: null });
          callbacks.onSuccess?.(data);
        },
        (error: unknown) => {
          if (!current()) return;
          setState({ status: 'error', data: undefined, error });
          callbacks.onError?.(error);
        },
      );
    },
    [send],
  );

  switch (state.status) {
    case 'idle':
      return { mutate, isPending: false, isSuccess: false, isError: false, data: undefined, error: null };
    case 'pending':
      return { mutate, isPending: true, isSuccess: false, isError: false, data: undefined, error: null };
    case 'success':
      return { mutate, isPending: false, isSuccess: true, isError: false, data: state.data, error: null };
    case 'error':
      return { mutate, isPending: false, isSuccess: false, isError: true, data: undefined, error: state.error };
  }
}

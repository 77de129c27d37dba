/**
 * A server-sent events client over a real socket (fetch + a stream reader), parsing frames the
 * way the WHATWG HTML standard describes (`id:`, `event:`, `data:`, comments).
 */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  /** `data` parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The body as text when the answer was not a stream (e.g. a 401 or 429). */
  body: string;
  /** The next event (frames without data, like a lone `id:`, are not events); rejects if the stream ends first. */
  next(): Promise<SseEvent>;
  /** The next event of one of `types`, skipping others. */
  nextOf(...types: string[]): Promise<SseEvent>;
  /** Resolves once a comment line (a heartbeat) has arrived. */
  nextComment(): Promise<string>;
  /** The last `id:` the stream sent, as a browser would resend it in Last-Event-ID. */
  readonly lastEventId: string;
  /** Resolves with the last event id once the stream has sent one. */
  position(): Promise<string>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openStream(baseUrl: string, cookie: string | undefined, lastEventId?: string, extraHeaders: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...extraHeaders };
  if (cookie !== undefined) headers.cookie = cookie;
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const res = await fetch(`${baseUrl}/api/events`, { headers, signal: controller.signal });
  const isStream = res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (!isStream || res.body === null) {
    return {
      status: res.status,
      headers: res.headers,
      body: await res.text(),
      next: () => Promise.reject(new Error('not a stream')),
      nextOf: () => Promise.reject(new Error('not a stream')),
      nextComment: () => Promise.reject(new Error('not a stream')),
      lastEventId: '',
      position: () => Promise.reject(new Error('not a stream')),
      ended: Promise.resolve(),
      close: () => undefined,
    };
  }
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let waiter: (() => void) | undefined;
  let done = false;
  let failure: Error | undefined;
  let last = '';
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let buffer = '';
    let id: string | undefined;
    let event = '';
    let data: string[] = [];
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffer += chunk.value;
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf('\n');
          if (line === '') {
            if (id !== undefined) last = id;
            if (data.length > 0) {
              const text = data.join('\n');
              let json: unknown;
              try {
                json = JSON.parse(text);
              } catch {
                json = undefined;
              }
              events.push({ id, event: event === '' ? 'message' : event, data: text, json });
            }
            id = undefined;
            event = '';
            data = [];
          } else if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
          } else {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') id = value;
            else if (field === 'event') event = value;
            else if (field === 'data') data.push(value);
          }
          waiter?.();
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) failure = error as Error;
    } finally {
      done = true;
      waiter?.();
    }
  })();
  const waitFor = async <T>(take: () => T | undefined): Promise<T> => {
    for (;;) {
      const value = take();
      if (value !== undefined) return value;
      if (done) throw failure ?? new Error('The stream ended');
      await new Promise<void>((resolve) => (waiter = resolve));
    }
  };
  return {
    status: res.status,
    headers: res.headers,
    body: '',
    next: () => waitFor(() => events.shift()),
    async nextOf(...types) {
      for (;;) {
        const event = await waitFor(() => events.shift());
        if (types.includes(event.event)) return event;
      }
    },
    nextComment: () => waitFor(() => comments.shift()),
    get lastEventId() {
      return last;
    },
    position: () => waitFor(() => (last === '' ? undefined : last)),
    ended,
    close() {
      controller.abort();
    },
  };
}

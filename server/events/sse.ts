import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventType, LoggedEvent } from '../repositories/events-repository.ts';
import { payloadAs } from './addressing.ts';
import { RETRY_MS } from './policy.ts';

/**
 * The text of a server-sent event stream, as the WHATWG HTML standard defines it: `id:`,
 * `event:`, `data:` and comment lines, each frame ended by a blank line.
 */

/** One event's frame: its log id, its type and its JSON payload. */
export const eventFrame = (id: number, type: EventType, payload: string) => `id: ${id}\nevent: ${type}\ndata: ${payload}\n\n`;

const frames = new WeakMap<LoggedEvent, Map<EventType, string>>();
/** The frame of `event` sent as `type` (see payloadAs), made once per event and type however many streams get it. */
export function frame(event: LoggedEvent, type: EventType = event.type): string {
  let byType = frames.get(event);
  if (byType === undefined) {
    byType = new Map();
    frames.set(event, byType);
  }
  let text = byType.get(type);
  if (text === undefined) {
    text = eventFrame(event.id, type, payloadAs(event, type));
    byType.set(type, text);
  }
  return text;
}
/** Sets the browser's last event id without an event (an `id:` without `data:`). */
export const positionFrame = (id: number) => `id: ${id}\n\n`;
/** Tells the client its position is unknown: it reloads, then resumes from `id`. */
export const resetFrame = (id: number) => `id: ${id}\nevent: reset\ndata: {}\n\n`;
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** `Last-Event-ID` as a log position; undefined when absent, NaN when it is not one of ours. */
export function lastEventIdOf(request: FastifyRequest): number | undefined {
  const value = request.headers['last-event-id'];
  const header = Array.isArray(value) ? value.join(',') : value;
  if (header === undefined || header === '') return undefined;
  return /^\d{1,15}$/.test(header) ? Number(header) : Number.NaN;
}

/** Takes the answer over from Fastify and starts it as an event stream; returns the raw response. */
export function startEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise hold events back in a buffer.
    'x-accel-buffering': 'no',
  });
  return raw;
}

/** The first frame of every stream: the browser's reconnect delay. */
export const RETRY_FRAME = `retry: ${RETRY_MS}\n\n`;

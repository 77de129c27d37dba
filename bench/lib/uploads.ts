/**
 * File uploads as a browser sends them: `POST /api/tasks/:id/attachments` with a
 * `multipart/form-data` body (one file in the field `file`) over a real socket, the file made on
 * the fly from one MiB of random bytes sent again and again, so even a 500 MB file is never held
 * in memory here.
 * `startUploadLoad` keeps N uploads running in a worker thread (its own event loop: the
 * uploads' sending does not delay the latency probes of the main thread).
 */
import { randomFill } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';

const CHUNK = 1024 * 1024;
const fill = (buffer: Buffer) =>
  new Promise<Buffer>((resolve, reject) => {
    randomFill(buffer, (error, filled) => {
      if (error === null) resolve(filled);
      else reject(error);
    });
  });

let randomChunk: Promise<Buffer> | undefined;
/**
 * `size` bytes, a chunk of at most 1 MiB at a time: the same random MiB over and over (made once
 * per thread). The server stores bytes as they come, so their repeating changes nothing there;
 * making fresh ones cost the sender, which shares the machine's two cores with the server, a
 * good part of a core at the uploads' speed.
 */
async function* randomBytesOf(size: number): AsyncGenerator<Buffer> {
  randomChunk ??= fill(Buffer.allocUnsafe(CHUNK));
  const chunk = await randomChunk;
  for (let left = size; left > 0; left -= CHUNK) yield left >= CHUNK ? chunk : chunk.subarray(0, left);
}

export interface UploadAnswer {
  status: number;
  /** The answer's JSON (undefined when it was not JSON). */
  body: unknown;
  seconds: number;
}

/** One upload of `size` random bytes to task `taskId`, with the body's length announced (as browsers do). */
export async function uploadFile(opts: { baseUrl: string; cookie: string; taskId: string; size: number; name: string; agent?: Agent }): Promise<UploadAnswer> {
  const boundary = `----taskwise-bench-${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${opts.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = performance.now();
  const req = request(new URL(`/api/tasks/${opts.taskId}/attachments`, opts.baseUrl), {
    method: 'POST',
    ...(opts.agent === undefined ? {} : { agent: opts.agent }),
    headers: {
      cookie: opts.cookie,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + opts.size + tail.length),
    },
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => {
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.once('error', reject);
    });
    req.once('error', reject);
  });
  const parts = async function* () {
    yield head;
    yield* randomBytesOf(opts.size);
    yield tail;
  };
  // A server that answers early (an error) may close the socket while the body is still going.
  await pipeline(Readable.from(parts(), { objectMode: false }), req).catch(() => undefined);
  const { status, text } = await answered;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status, body, seconds: (performance.now() - started) / 1000 };
}

export interface UploadLoadSpec {
  baseUrl: string;
  cookie: string;
  /** Uploads go to these tasks in turn (a task holds at most 100 files). */
  taskIds: string[];
  concurrency: number;
  size: number;
}

export interface UploadLoadResult {
  /** 201 answers, and the bytes they stored. */
  done: number;
  bytes: number;
  /** Answers other than 201, by status ("socket" for a failed connection). */
  failed: Record<string, number>;
  /** From the start to the last answer. */
  seconds: number;
  /** Each finished upload's time, seconds. */
  durations: number[];
}

/**
 * Keeps `concurrency` uploads of `size` bytes running (a new one starts as each finishes) until
 * `stop()`, which lets those in flight finish and resolves with what was done.
 */
export function startUploadLoad(spec: UploadLoadSpec): { stop(): Promise<UploadLoadResult> } {
  const worker = new Worker(new URL('./upload-worker.ts', import.meta.url), { workerData: spec });
  const result = new Promise<UploadLoadResult>((resolve, reject) => {
    worker.once('message', (message: UploadLoadResult) => {
      resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`the upload worker exited (${code}) without a result`));
    });
  });
  return {
    async stop() {
      worker.postMessage('stop');
      try {
        return await result;
      } finally {
        await worker.terminate();
      }
    },
  };
}

/** The worker's side of `startUploadLoad`. */
export async function runUploadLoad(spec: UploadLoadSpec, stopped: () => boolean): Promise<UploadLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const result: UploadLoadResult = { done: 0, bytes: 0, failed: {}, seconds: 0, durations: [] };
  const started = performance.now();
  let next = 0;
  const loop = async () => {
    while (!stopped()) {
      const taskId = spec.taskIds[next++ % spec.taskIds.length]!;
      try {
        const answer = await uploadFile({ baseUrl: spec.baseUrl, cookie: spec.cookie, taskId, size: spec.size, name: `load-${next}.bin`, agent });
        if (answer.status === 201) {
          result.done++;
          result.bytes += spec.size;
          result.durations.push(answer.seconds);
        } else {
          result.failed[answer.status] = (result.failed[answer.status] ?? 0) + 1;
        }
      } catch {
        result.failed.socket = (result.failed.socket ?? 0) + 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: spec.concurrency }, loop));
  } finally {
    agent.destroy();
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/** The worker thread of `startUploadLoad` (uploads.ts): runs the uploads until told to stop, then posts the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { runUploadLoad, type UploadLoadSpec } from './uploads.ts';

let stopped = false;
parentPort?.once('message', () => {
  stopped = true;
});
const result = await runUploadLoad(workerData as UploadLoadSpec, () => stopped);
parentPort?.postMessage(result);

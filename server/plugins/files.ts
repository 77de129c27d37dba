import fp from 'fastify-plugin';
import type { FileStore } from '../files/file-store.ts';
import { createFileStore } from '../files/create-file-store.ts';
import { createPartialUploads, type PartialUploads } from '../files/partial-uploads.ts';
import { sweepDueFiles } from '../files/sweeps.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where attachment files live (FILES_DIR on disk, or the S3_URL bucket). */
    files: FileStore;
    /** Resumable (tus) uploads until they are whole, beside the files (routes/uploads.ts). */
    partialUploads: PartialUploads;
  }
}

/** How often each instance deletes the files that are due (a deleted attachment's within this, plus one round). */
const SWEEP_EVERY_MS = 5_000;

/**
 * The file store, the resumable uploads in progress, and the sweeper: every 5 seconds each instance deletes the files whose
 * `file_sweeps` rows are due — those of deleted attachments (at once) and of uploads that never
 * got their row (after an hour). The rows are in the database, so whichever instance comes
 * first deletes them, once.
 */
export default fp(
  (fastify, _opts, done) => {
    const store = createFileStore(fastify.config.files);
    fastify.decorate('files', store);
    const partialUploads = createPartialUploads(fastify.config.files, fastify.config.database);
    fastify.decorate('partialUploads', partialUploads);
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    const sweep = () => {
      running ??= sweepDueFiles(fastify.db, store, fastify.clock.now().toISOString())
        .then((deleted: number) => {
          if (deleted > 0) fastify.log.debug({ deleted }, 'Attachment files deleted');
        })
        .catch((error: unknown) => {
          fastify.log.warn({ err: error }, 'Deleting attachment files failed; the next round tries again');
        })
        .finally(() => {
          running = undefined;
        });
      return running;
    };
    fastify.addHook('onReady', (next) => {
      timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
      timer.unref();
      next();
    });
    fastify.addHook('preClose', (next) => {
      clearInterval(timer);
      next();
    });
    fastify.addHook('onClose', async () => {
      await running;
      await store.close();
      await partialUploads.close();
    });
    done();
  },
  { name: 'files', dependencies: ['config', 'db'] },
);

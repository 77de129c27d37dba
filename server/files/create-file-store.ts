import type { FilesConfig } from '../config.ts';
import { createDiskStore } from './disk-store.ts';
import type { FileStore } from './file-store.ts';
import { createS3Store } from './s3-store.ts';

/** The store the configuration names: FILES_DIR on local disk, or the bucket of S3_URL. */
export function createFileStore(files: FilesConfig): FileStore {
  return files.kind === 'disk' ? createDiskStore(files.dir) : createS3Store(files);
}

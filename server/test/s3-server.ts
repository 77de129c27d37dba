import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { FilesConfig } from '../config.ts';

export interface TestS3Server {
  /** What S3_URL would give for this server's one bucket. */
  config: Extract<FilesConfig, { kind: 's3' }>;
  stop(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on a free loopback port, its objects in a temporary directory, with one bucket. */
export async function startS3Server(bucket = 'taskwise-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'taskwise-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { address, port } = await server.run();
  return {
    // s3rver accepts any key pair (S3RVER/S3RVER by default) and checks the signature with it.
    config: { kind: 's3', endpoint: `http://${address}:${port}`, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The part of s3rver 3's API the tests use (it ships no types). */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Listens; resolves with where. */
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}

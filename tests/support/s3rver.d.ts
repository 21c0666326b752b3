// s3rver ships no types: the few members the S3 stand-in (tests/support/s3.ts, scripts/bench-files.ts) uses
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: Buffer[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    configureBuckets(): Promise<void>;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}

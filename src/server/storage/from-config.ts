import path from 'node:path';
import { fileStoreKind, type Config } from '../config';
import { diskFileStore, type FileStore } from './file-store';
import type { S3StoreOptions } from './s3-store';

/** The bucket's settings; undefined when S3_BUCKET is not set. */
export function s3OptionsFor(config: Config): S3StoreOptions | undefined {
  if (!config.S3_BUCKET) return undefined;
  return {
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    publicUrl: config.S3_PUBLIC_URL,
    cacheBytes: config.S3_CACHE_MB * 1024 * 1024,
  };
}

/**
 * The configured file store: DATA_DIR/uploads by default, the bucket with FILE_STORE=s3 or
 * S3_BUCKET. The AWS SDK is loaded only then (some 30 MB of memory a disk store does not need).
 */
export async function fileStoreFor(config: Config): Promise<FileStore> {
  const s3 = s3OptionsFor(config);
  if (fileStoreKind(config) === 's3' && s3) return (await import('./s3-store')).s3FileStore(s3);
  return diskFileStore(path.join(config.DATA_DIR, 'uploads'));
}

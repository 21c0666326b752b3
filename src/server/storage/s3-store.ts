import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import { MIME_BY_EXT } from './file-type';
import { FileStoreUnavailableError, isSafeStoredName, type FileStore } from './file-store';

export interface S3StoreOptions {
  bucket: string;
  /** An S3-compatible service (MinIO, R2, …); unset: AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own credentials (AWS_* variables, the instance's role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
  /** Where the bucket's `public/` objects are publicly readable (a CDN or the bucket's website). */
  publicUrl?: string;
  /** Bytes of public images kept in this process's memory (S3_CACHE_MB); 0: none. */
  cacheBytes?: number;
}

/**
 * Public images (the extensions GET /uploads/{name} serves) are kept under `public/`, drafts and
 * message attachments under `private/`: a bucket policy can then let the world read `public/*`
 * only, and S3_PUBLIC_URL serves nothing private.
 */
const isPublic = (name: string) => Boolean(MIME_BY_EXT[name.split('.').pop() ?? '']?.startsWith('image/'));
const objectKey = (name: string) => `${isPublic(name) ? 'public' : 'private'}/${name}`;

const CACHE_PUBLIC = 'public, max-age=31536000, immutable';
/** the largest image kept in memory: logos and avatars are far smaller; a bigger one is streamed */
const CACHED_IMAGE_MAX_BYTES = 1024 * 1024;
const CACHE_PRIVATE = 'private, no-store';

/** S3 answers a missing key with 404 (NoSuchKey on GET, NotFound on HEAD); a missing bucket is no missing file. */
const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket';
};

/** A store's answer that another attempt may change: the network, a 5xx, throttling. */
function isTransient(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return status === undefined || status >= 500 || status === 429;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PUT_ATTEMPTS = 3;

export function s3Client(o: S3StoreOptions): S3Client {
  return new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials: o.credentials,
    // checksums only where S3 requires them: the default (a CRC32 trailer in aws-chunked encoding
    // on every upload) is not understood by every S3-compatible service, which would store the
    // chunk framing as the file's bytes
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // a bucket that cannot be reached is a 503 within seconds, not a request left hanging
    requestHandler: { connectionTimeout: 3_000, socketTimeout: 30_000 },
    // the SDK warns on the console; the store reports its failures as errors instead
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}

/**
 * Files in an S3-compatible bucket (decision 020): uploads are streamed to it from their spooled
 * file (one PUT: S3 stores an object whole or not at all), reads are streamed from it. Any failure
 * other than a missing object is a FileStoreUnavailableError (503).
 *
 * Public images (up to 1 MB each) are also kept in memory, `cacheBytes` in all: a stored file never
 * changes (every upload gets a new random name), so a copy cannot go stale, and a page full of
 * logos costs the bucket one GET per image and instance, not one per visitor. Private files are
 * never kept.
 */
export function s3FileStore(o: S3StoreOptions, client: S3Client = s3Client(o)): FileStore {
  const Bucket = o.bucket;
  const publicBase = o.publicUrl?.replace(/\/+$/, '');
  const unavailable = (err: unknown) => new FileStoreUnavailableError(err);
  const images = o.cacheBytes
    ? new LRUCache<string, Buffer>({ maxSize: o.cacheBytes, maxEntrySize: CACHED_IMAGE_MAX_BYTES, sizeCalculation: (b) => b.length || 1 })
    : undefined;
  const kept = (bytes: Buffer) => ({ stream: Readable.from([bytes]), size: bytes.length });
  return {
    async put(name, source, contentType) {
      if (!isSafeStoredName(name)) throw new Error(`unsafe file name ${name}`);
      // the SDK does not retry a streamed body (it cannot read it again): a fresh stream each try
      for (let attempt = 1; ; attempt++) {
        try {
          await client.send(
            new PutObjectCommand({
              Bucket,
              Key: objectKey(name),
              Body: source.open(),
              ContentLength: source.size,
              ContentType: contentType,
              CacheControl: isPublic(name) ? CACHE_PUBLIC : CACHE_PRIVATE,
            }),
          );
          return;
        } catch (err) {
          if (attempt >= PUT_ATTEMPTS || !isTransient(err)) throw unavailable(err);
          await sleep(100 * 2 ** attempt);
        }
      }
    },
    async get(name) {
      if (!isSafeStoredName(name)) return null;
      const hit = images?.get(name);
      if (hit) return kept(hit);
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(name) }));
        const file = { stream: res.Body as Readable, size: res.ContentLength ?? 0 };
        if (!images || !isPublic(name) || res.ContentLength === undefined || file.size > CACHED_IMAGE_MAX_BYTES) return file;
        const bytes = Buffer.concat(await file.stream.toArray());
        images.set(name, bytes);
        return kept(bytes);
      } catch (err) {
        if (isMissing(err)) return null;
        throw unavailable(err);
      }
    },
    async stat(name) {
      if (!isSafeStoredName(name)) return null;
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(name) }));
        return { size: res.ContentLength ?? 0 };
      } catch (err) {
        if (isMissing(err)) return null;
        throw unavailable(err);
      }
    },
    async delete(name) {
      if (!isSafeStoredName(name)) return;
      images?.delete(name);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(name) }));
      } catch (err) {
        if (!isMissing(err)) throw unavailable(err);
      }
    },
    publicUrl: publicBase ? (name) => (isPublic(name) ? `${publicBase}/${objectKey(name)}` : undefined) : undefined,
  };
}

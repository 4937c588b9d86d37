import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { checkKey, missingFileError, SAFE_KEY, type Storage } from './index.js';

export interface S3StorageOptions {
  bucket: string;
  /** An S3-compatible server (MinIO, R2, s3rver…); AWS itself when unset. */
  endpoint?: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key`: what most S3-compatible servers expect. */
  forcePathStyle: boolean;
  /** Before every key (`parley/`), so that Parley lists and sweeps only its own objects in a shared bucket. */
  prefix?: string | undefined;
  /** Keys per ListObjectsV2 call (S3 answers at most 1000). */
  pageSize?: number;
}

/**
 * The same Storage as the local folder, on an S3-compatible store. Keys follow the local rules (SAFE_KEY); objects
 * that do not (someone else's, in a shared bucket) are never listed. No key appears in an error message or a log.
 */
export function createS3Storage(options: S3StorageOptions): Storage & { close(): void } {
  const { bucket, prefix = '', pageSize = 1000 } = options;
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Checksums only where S3 requires them: many S3-compatible servers refuse or mangle the newer CRC headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
  const objectKey = (key: string) => prefix + checkKey(key);

  return {
    async put(key, bytes) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: 'application/octet-stream',
        }),
      );
    },

    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        if (!object.Body) throw missingFileError();
        const bytes = await object.Body.transformToByteArray();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (error) {
        // What the local folder throws for a missing file, so that callers handle both alike.
        if (error instanceof NoSuchKey) throw missingFileError();
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) throw missingFileError();
        throw error;
      }
    },

    async remove(key) {
      // S3 answers 204 for a key that holds nothing: removing twice is fine, as on the local folder.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            MaxKeys: pageSize,
            ...(prefix ? { Prefix: prefix } : {}),
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key?.startsWith(prefix)) continue;
          const key = object.Key.slice(prefix.length);
          if (!SAFE_KEY.test(key)) continue;
          // Without a date the object counts as just written, so the sweep of orphaned files leaves it.
          yield { key, modifiedAt: object.LastModified ?? new Date() };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    close: () => client.destroy(),
  };
}

import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { assertObjectKey, FileStorage, type StoredObject } from './file-storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2 …); addressed path-style. Empty → AWS. */
  endpoint?: string;
  /** Explicit credentials; without them the SDK's usual chain (AWS_* environment, profile …) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
}

const missing = (e: unknown): boolean =>
  e instanceof NoSuchKey || e instanceof NotFound || (e instanceof S3ServiceException && e.$metadata?.httpStatusCode === 404);

/** Hosted files in an S3 bucket, through the AWS SDK (PutObject, GetObject, HeadObject, DeleteObject). */
export class S3FileStorage extends FileStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    super();
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // S3-compatible stores differ in checksum support: only send and check what the call needs.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertObjectKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertObjectKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return undefined;
      const body = out.Body instanceof Readable ? out.Body : Readable.fromWeb(out.Body.transformToWebStream() as never);
      return { body, size: Number(out.ContentLength ?? 0) };
    } catch (e) {
      if (missing(e)) return undefined;
      throw e;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertObjectKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (e) {
      if (missing(e)) return false;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  destroy(): void {
    this.client.destroy();
  }
}

import type { Readable } from 'node:stream';

/** An object read back from storage. */
export interface StoredObject {
  body: Readable;
  size: number;
}

/**
 * Where hosted files' bytes live: the local disk or an S3-compatible store. Object keys are made
 * by the server (`objectKeyFor`), never from a name a user sent; drivers refuse anything else.
 */
export abstract class FileStorage {
  /** 'disk' or 's3', for logs and the health of the deployment. */
  abstract readonly kind: 'disk' | 's3';
  abstract put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or undefined when it does not exist. */
  abstract get(key: string): Promise<StoredObject | undefined>;
  abstract exists(key: string): Promise<boolean>;
  /** Removes the object; removing a missing object is not an error. */
  abstract delete(key: string): Promise<void>;
}

/** Keys look like `ab/<cuid>`: lower-case letters and digits in two segments, nothing else. */
const KEY = /^[a-z0-9]{2}\/[a-z0-9]{8,32}$/;

export function isObjectKey(key: string): boolean {
  return KEY.test(key);
}

/** The object key of a new file id (a server-made CUID2), fanned out over folders by prefix. */
export function objectKeyFor(id: string): string {
  const key = `${id.slice(0, 2)}/${id}`;
  if (!isObjectKey(key)) throw new Error('A file id must be a CUID2');
  return key;
}

export function assertObjectKey(key: string): void {
  if (!isObjectKey(key)) throw new Error(`Refusing an object key that the server did not make: ${JSON.stringify(key)}`);
}

import { closeSync, mkdirSync, openSync, writevSync } from 'node:fs';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';

/**
 * A file written by the calling thread itself (synchronous writes). Node's file streams hand each
 * write to libuv's thread pool, which the whole process shares and whose threads run at the
 * server's priority: an export thread lowered to the background would still queue its writes in
 * front of every other company's (theirs wait behind it in the same four threads). Written here,
 * the writes take the export thread's own time, at its own priority. Only for worker threads: a
 * synchronous write on the event loop would stall every request. Makes the file's folder when
 * missing, and counts the bytes written.
 */
export class ThreadFileSink extends Writable {
  private fd: number | undefined;
  /** Bytes written to the file so far. */
  bytes = 0;

  constructor(private readonly path: string) {
    super({ highWaterMark: 1 << 20 });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, 'w');
      callback();
    } catch (e) {
      callback(e as Error);
    }
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    try {
      const buffers = chunks.map((c) => c.chunk);
      let left = buffers.reduce((n, b) => n + b.length, 0);
      while (left > 0) {
        const wrote = writevSync(this.fd!, buffers);
        left -= wrote;
        this.bytes += wrote;
        if (left > 0) dropWritten(buffers, wrote);
      }
      callback();
    } catch (e) {
      callback(e as Error);
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.closeFile(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.closeFile((e) => callback(error ?? e));
  }

  private closeFile(callback: (error?: Error | null) => void): void {
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) closeSync(fd);
      callback();
    } catch (e) {
      callback(e as Error);
    }
  }
}

/** Drops the first `n` bytes from a list of buffers (a short write), in place. */
function dropWritten(buffers: Buffer[], n: number): void {
  while (n > 0 && buffers.length) {
    if (buffers[0].length <= n) n -= buffers.shift()!.length;
    else {
      buffers[0] = buffers[0].subarray(n);
      n = 0;
    }
  }
}

import { existsSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread running `entry`, a module given without extension, next to the caller
 * (`join(__dirname, 'name')`). The built server runs `entry.js`; when the server runs from its
 * TypeScript sources (the tests), the thread compiles `entry.ts` the way the tests do (@swc/core,
 * a development dependency), so both run the same code.
 */
export function startThread(entry: string, workerData: unknown): Worker {
  const js = `${entry}.js`;
  if (existsSync(js)) return new Worker(js, { workerData });
  const ts = `${entry}.ts`;
  if (!existsSync(ts)) throw new Error(`thread entry ${entry} not found`);
  const boot = `
    const { readFileSync } = require('node:fs');
    const { transformSync } = require('@swc/core');
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(readFileSync(filename, 'utf8'), {
        filename,
        jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      module._compile(code, filename);
    };
    require(${JSON.stringify(ts)});
  `;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * Sets the nice value of the calling thread only (Linux keeps a nice value per thread): above 0,
 * background work (a long export) gives way to requests and ingest whenever the cores are busy,
 * and still runs at full speed on an idle machine. Raising the priority back (a lower value) needs
 * the right to, which a server not run as root lacks: false then, as elsewhere than Linux.
 */
export function setThreadPriority(nice: number): boolean {
  const tid = threadId();
  if (tid === undefined) return false;
  try {
    setPriority(tid, Math.max(-20, Math.min(19, nice)));
    return true;
  } catch {
    return false;
  }
}

/** The calling thread's nice value (undefined where threads cannot be told apart). */
export function threadPriority(): number | undefined {
  const tid = threadId();
  try {
    return tid === undefined ? undefined : getPriority(tid);
  } catch {
    return undefined;
  }
}

/** The kernel's id of the calling thread (Linux), which os.setPriority takes as a pid. */
function threadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

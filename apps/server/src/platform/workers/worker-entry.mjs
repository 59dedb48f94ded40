// Entry of a file worker thread. Plain JavaScript so it loads the same under the server (tsx) and under
// vitest (whose TypeScript transform does not reach worker threads): it registers tsx, then each task
// names a TypeScript module and one of its exported functions.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();

// A result's bytes are moved, not copied, back to the API thread; only whole buffers of their own
// (a slice of Node's shared Buffer pool must be copied).
const ownBuffer = (v) => v instanceof Uint8Array && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer;
function transferables(value) {
  const candidates = value && typeof value === 'object' && !(value instanceof Uint8Array) ? Object.values(value) : [value];
  return [...new Set(candidates.filter(ownBuffer).map((v) => v.buffer))];
}

parentPort.on('message', async ({ id, module, fn, args }) => {
  try {
    const loaded = await import(module);
    if (typeof loaded[fn] !== 'function') throw new Error(`${module} exports no function ${fn}.`);
    const result = await loaded[fn](...args);
    parentPort.postMessage({ id, ok: true, result }, transferables(result));
  } catch (error) {
    // Errors cross the thread boundary as plain data: AppError's status code would otherwise be lost.
    const statusCode = typeof error?.statusCode === 'number' ? error.statusCode : undefined;
    parentPort.postMessage({ id, ok: false, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error), statusCode } });
  }
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

// The API's process must keep the engine's own built-ins. pdfjs-dist's legacy build (core-js) replaces
// Array.prototype.push, JSON.parse and JSON.stringify with JavaScript in the realm that loads it: imported by the
// API's thread, it cost every request a tenth or more of its throughput (issue 10's directory bench, zip search: the
// API at 0.70× the raw SQL with it, 0.83× without). Parsers of untrusted files load in the file workers only.
// Additions are allowed (reflect-metadata's Reflect.metadata, which @peculiar/x509 needs); replacements and core-js
// are not. The process is the real server's: main.ts and everything it imports, stopped by a configuration error
// before it opens anything; what was replaced is printed on exit.
const probe = `
const intrinsics = {
  Array, 'Array.prototype': Array.prototype, JSON, Object, 'Object.prototype': Object.prototype, Promise, 'Promise.prototype': Promise.prototype,
  'Map.prototype': Map.prototype, 'Set.prototype': Set.prototype, 'String.prototype': String.prototype, 'Function.prototype': Function.prototype,
  'RegExp.prototype': RegExp.prototype, 'Iterator.prototype': Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
  'TypedArray.prototype': Object.getPrototypeOf(Uint8Array.prototype), 'ArrayBuffer.prototype': ArrayBuffer.prototype, Math, Number, Reflect,
};
const snapshot = () => Object.entries(intrinsics).flatMap(([name, o]) => Reflect.ownKeys(o).map((key) => {
  const d = Object.getOwnPropertyDescriptor(o, key);
  return [name + '.' + String(key), d.value ?? d.get];
}));
const before = new Map(snapshot());
process.on('exit', () => {
  const changed = snapshot().filter(([key, value]) => before.has(key) && !Object.is(before.get(key), value)).map(([key]) => key);
  if ('__core-js_shared__' in globalThis) changed.push('globalThis.__core-js_shared__');
  console.log('BUILTINS ' + JSON.stringify(changed));
});
await import(${JSON.stringify(pathToFileURL(path.join(root, 'apps/server/src/main.ts')).href)});
`;

it("keeps the engine's built-ins in the API's process (no polyfill replaces them)", async () => {
  const run = promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], {
    cwd: root,
    // Production without its keys: main() stops at loadConfig, after every module it imports has loaded.
    env: { PATH: process.env.PATH, NODE_ENV: 'production' },
  });
  const output = await run.then(
    (r) => r.stdout,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
  );
  expect(output).toContain('Production mode needs TOKEN_SIGNING_KEY');
  const line = /^BUILTINS (.*)$/m.exec(output)?.[1];
  expect(line, output).toBeDefined();
  expect(JSON.parse(line!)).toEqual([]);
}, 60_000);

// `npm run dev`: the server with reload (tsx watch) and the Vite dev server (apps/web, port 5173,
// proxying /api to the server) together, output prefixed with [server] / [web]. When either exits, or
// on Ctrl-C / SIGTERM, both are stopped and this exits.
//
// Each child runs in its own process group (detached), so a terminal Ctrl-C reaches only this script,
// which then signals each child exactly once. A second copy of SIGINT would make tsx watch SIGKILL the
// server mid-shutdown. Caveat: if this script is SIGKILLed, `tsx watch` and the server keep running
// (Vite exits on its own when its stdin pipe closes).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const FORCE_KILL_AFTER_MS = 10_000;
const REPEATED_SIGNAL_WINDOW_MS = 1_000;

/** Absolute path of a package's CLI script, resolved from `fromDir` (workspaces hoist packages to the root). */
function binOf(pkg, fromDir, name = pkg) {
  const require = createRequire(path.join(fromDir, 'package.json'));
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return path.resolve(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin[name]);
}

const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const env = { ...process.env };
// Children write into pipes, not the terminal: keep their colours when ours are on.
if (colour && env.FORCE_COLOR === undefined) env.FORCE_COLOR = '1';

const children = [
  {
    name: 'server',
    colourCode: 36,
    // Signal that makes this child stop gracefully (tsx watch relays it to the server once).
    stopSignal: 'SIGINT',
    command: [binOf('tsx', root), 'watch', '--clear-screen=false', 'apps/server/src/main.ts'],
    cwd: root, // DATA_DIR defaults to ./data, relative to the working directory
  },
  {
    name: 'web',
    colourCode: 35,
    stopSignal: 'SIGTERM',
    command: [binOf('vite', web), '--clearScreen', 'false'],
    cwd: web,
  },
];

let stopping = false;
let exitCode = 0;
let lastSignalAt = 0;
let forceKillTimer;

function prefixLines(stream, prefix, out) {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix} ${line}\n`));
}

for (const child of children) {
  const prefix = colour ? `\x1b[${child.colourCode}m[${child.name}]\x1b[0m` : `[${child.name}]`;
  // stdin is a pipe we never write to: Vite exits when it closes (stdin 'end'), tsx watch reruns on input.
  const proc = spawn(process.execPath, child.command, { cwd: child.cwd, env, stdio: 'pipe', detached: true });
  child.proc = proc;
  child.exited = false;
  prefixLines(proc.stdout, prefix, process.stdout);
  prefixLines(proc.stderr, prefix, process.stderr);
  proc.on('error', (error) => {
    process.stderr.write(`${prefix} failed to start: ${error.message}\n`);
    child.exited = true;
    if (!stopping) exitCode = 1;
    stopAll();
  });
  proc.on('exit', (code, signal) => {
    child.exited = true;
    if (!stopping) {
      process.stderr.write(`${prefix} exited (${signal ?? `code ${code}`}); stopping the others\n`);
      exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
    } else if (code && code !== 128 + constants.signals[child.stopSignal]) {
      exitCode ||= code; // (Vite exits with 143 after a clean stop on SIGTERM)
    } else if (signal && signal !== child.stopSignal) {
      exitCode ||= 128 + (constants.signals[signal] ?? 0); // force-killed
    }
    stopAll();
    if (children.every((c) => c.exited)) {
      clearTimeout(forceKillTimer);
      process.exitCode = exitCode;
    }
  });
}

/** Ask every running child to stop (once); SIGKILL their process groups if they take too long. */
function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.exited) continue;
    try {
      child.proc.kill(child.stopSignal);
    } catch {
      // already gone
    }
  }
  forceKillTimer = setTimeout(forceKill, FORCE_KILL_AFTER_MS);
  forceKillTimer.unref();
}

function forceKill() {
  for (const child of children) {
    if (child.exited || child.proc.pid === undefined) continue;
    try {
      process.kill(-child.proc.pid, 'SIGKILL'); // the whole group: tsx watch and the server it runs
    } catch {
      // already gone
    }
  }
}

function onSignal(signal) {
  const now = Date.now();
  if (!stopping) {
    lastSignalAt = now;
    exitCode = 0; // stopped on request
    stopAll();
    return;
  }
  // npm relays the terminal's Ctrl-C to us as well: ignore copies arriving together. A later
  // repeated Ctrl-C means "stop now".
  if (now - lastSignalAt < REPEATED_SIGNAL_WINDOW_MS) return;
  process.stderr.write(`Received ${signal} again: killing the dev processes\n`);
  forceKill();
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
// Last resort if this script dies of an exception: do not leave the children running.
process.on('exit', () => {
  if (children.some((c) => !c.exited)) forceKill();
});

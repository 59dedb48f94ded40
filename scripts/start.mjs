// `npm start`: build the web app when its sources are newer than apps/web/dist, then run the server.
//
// The server runs in this process (tsx registered, then apps/server/src/main.ts imported), which is
// what `node --import tsx apps/server/src/main.ts` does. No child process means no signal forwarding:
// Ctrl-C reaches the server exactly once (a forwarded copy on top of the terminal's own SIGINT to the
// process group would make the server's second-signal default kill it mid-shutdown), SIGTERM from a
// supervisor reaches it directly, and the exit code is the server's own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const builtIndex = path.join(web, 'dist/index.html');
// Everything the web bundle is built from.
const webInputs = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'scripts'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'package.json'),
  path.join(root, 'packages/contracts/src'),
];

/** Newest modification time (ms) of a file, or of any file below a folder; 0 when missing. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const mtime = statSync(path.join(entry.parentPath, entry.name)).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

function webBuildReason() {
  if (!existsSync(builtIndex)) return 'apps/web/dist/index.html is missing';
  const built = statSync(builtIndex).mtimeMs;
  const changed = webInputs.find((input) => newestMtime(input) > built);
  return changed ? `${path.relative(root, changed)} changed since the last build` : undefined;
}

/** Path of vite's CLI script, resolved the way apps/web resolves it (workspaces hoist it to the root). */
function viteBin() {
  const requireFromWeb = createRequire(path.join(web, 'package.json'));
  const manifestPath = requireFromWeb.resolve('vite/package.json');
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return path.resolve(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin.vite);
}

// `--build-only` (used by the e2e setup) stops after the build; `--force-build` builds whatever the times say.
const buildOnly = process.argv.includes('--build-only');
const reason = process.argv.includes('--force-build') ? 'forced' : webBuildReason();
if (reason) {
  console.log(`Building the web app (${reason})…`);
  // Always the production bundle: a NODE_ENV of test (the e2e runner) or development would make vite ship React's development build.
  const build = spawnSync(process.execPath, [viteBin(), 'build'], { cwd: web, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (build.error) throw build.error;
  if (build.status !== 0) {
    console.error(`Web build failed${build.signal ? ` (${build.signal})` : ''}.`);
    process.exit(build.status ?? 1);
  }
}

if (buildOnly) process.exit(0);

// DATA_DIR defaults to ./data, relative to the working directory: run from the repository root.
process.chdir(root);
// Same as `node --import tsx`: registers tsx's ESM and CommonJS hooks (and source maps) in this process.
const requireFromRoot = createRequire(path.join(root, 'package.json'));
await import(pathToFileURL(requireFromRoot.resolve('tsx')).href);
await import(pathToFileURL(path.join(root, 'apps/server/src/main.ts')).href);

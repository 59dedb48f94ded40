import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// A PostgreSQL server of the test's own (initdb in a temporary folder, its own port), so a test may stop
// and start it without touching anyone else's database.
export interface PostgresCluster {
  // postgres://postgres@127.0.0.1:PORT/postgres
  url: string;
  port: number;
  dir: string;
  // 'fast' ends sessions cleanly (57P01), 'immediate' drops them like a crash.
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  // Stops the server (if running) and removes its folder.
  destroy(): Promise<void>;
}

// The folder with initdb, pg_ctl and postgres: POSTGRES_BIN_DIR, else the newest /usr/lib/postgresql/N/bin.
export function findPostgresBinaries(): string | undefined {
  const given = process.env.POSTGRES_BIN_DIR;
  if (given) return existsSync(path.join(given, 'pg_ctl')) ? given : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')) && existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

// Why PostgreSQL tests cannot run here, or undefined when they can. Under CI=true a missing server is an
// error (thrown), so CI can never skip these tests silently.
export function postgresUnavailableReason(): string | undefined {
  if (findPostgresBinaries()) return undefined;
  const reason = 'PostgreSQL server binaries (initdb, pg_ctl) not found: set POSTGRES_BIN_DIR or install Debian `postgresql`.';
  if (process.env.CI === 'true') throw new Error(`${reason} CI must provide them.`);
  console.warn(`Skipped: ${reason}`);
  return reason;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries not found.');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgc-'));
  const data = path.join(dir, 'data');
  // initdb refuses to run as root: the server runs as the postgres user then, on a folder it owns.
  const asRoot = process.getuid?.() === 0;
  const exec = (file: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, file), ...args]) : run(path.join(bin, file), args);
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const logFile = path.join(dir, 'server.log');
  let running = false;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-o', options, '-l', logFile, '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await exec('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    start,
    stop,
    async destroy() {
      if (running) await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

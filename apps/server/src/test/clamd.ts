import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { clamdScanner, type ClamdAddress } from '../platform/antivirus/clamd.ts';

// The EICAR test file: harmless, and detected by every antivirus as if it were a virus.
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
// clamd marks signatures from a database it did not sign this way.
export const EICAR_SIGNATURE = 'Eicar-Test-Signature.UNOFFICIAL';

const CANDIDATES = ['/usr/sbin/clamd', '/usr/local/sbin/clamd', '/usr/bin/clamd', '/usr/local/bin/clamd'];
export const clamdBinary = CANDIDATES.find((file) => existsSync(file));

let told = false;
// Why the clamd tests cannot run here (null when they can). Under CI a missing clamd is an error, so
// CI never skips them silently; elsewhere the reason is printed once and the tests are skipped.
export function clamdMissing(): string | null {
  if (clamdBinary) return null;
  const reason = `clamd is not installed (looked for ${CANDIDATES.join(', ')}; Debian: apt-get install -y clamav-daemon)`;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}.`);
  if (!told) console.warn(`[clamd] tests skipped: ${reason}.`);
  told = true;
  return reason;
}

export interface RunningClamd {
  url: string;
  tcp: ClamdAddress;
  socketPath: string;
  stop(): Promise<void>;
}

// A port nobody listens on right now (clamd binds it a moment later).
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Starts a clamd of its own on a free TCP port and a unix socket in a temp folder, with a one-signature
// database (EICAR's MD5) written here: no freshclam, no system service, no download.
export async function startClamd(options: { streamMaxLength?: string } = {}): Promise<RunningClamd> {
  if (!clamdBinary) throw new Error('clamd is not installed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-clamd-'));
  const databaseDir = path.join(dir, 'db');
  const logFile = path.join(dir, 'clamd.log');
  const socketPath = path.join(dir, 'clamd.sock');
  const port = await freePort();
  const md5 = createHash('md5').update(EICAR).digest('hex');
  mkdirSync(databaseDir);
  writeFileSync(path.join(databaseDir, 'eicar.hdb'), `${md5}:${Buffer.byteLength(EICAR)}:Eicar-Test-Signature\n`);
  const configFile = path.join(dir, 'clamd.conf');
  writeFileSync(
    configFile,
    [
      'Foreground yes',
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `LocalSocket ${socketPath}`,
      `DatabaseDirectory ${databaseDir}`,
      `TemporaryDirectory ${dir}`,
      `LogFile ${logFile}`,
      `PidFile ${path.join(dir, 'clamd.pid')}`,
      // Nothing to verify or run without the official databases.
      'Bytecode no',
      ...(options.streamMaxLength ? [`StreamMaxLength ${options.streamMaxLength}`] : []),
      '',
    ].join('\n'),
  );
  const child = spawn(clamdBinary, [`--config-file=${configFile}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const tcp = { host: '127.0.0.1', port };
  const probe = clamdScanner(tcp, { connectTimeoutMs: 500 });
  const deadline = Date.now() + 60_000;
  while (!(await probe.ping())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      await stop();
      throw new Error(`clamd did not answer PING (exit ${child.exitCode}):\n${stderr}\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `tcp://127.0.0.1:${port}`, tcp, socketPath, stop };
}

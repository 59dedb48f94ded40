import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCertificateAuthority, issueDirectCertificate } from '../apps/server/src/platform/direct/certificate-authority.ts';
import { decryptEntity, encryptEntity, signEntity, verifySignedEntity } from '../apps/server/src/platform/direct/smime.ts';
import { verifyChain } from '../apps/server/src/platform/direct/trust.ts';
import { opensslBinary } from '../apps/server/src/test/openssl.ts';
import { measure, type Measurement } from './measure.ts';
import { sized } from './size.ts';

// S/MIME throughput for Direct (issue 12 §5): sign+encrypt and decrypt+verify of a 1 MB message with our
// code (Node's native crypto), beside the OpenSSL command line on the same file and certificates in the
// same run. OpenSSL's figure includes starting its two processes per message, as a HISP shelling out would.

const ITERATIONS = sized(20, 2);
const WARMUP = sized(3, 1);
const TARGET_RATIO = 0.5;

async function run(openssl: string, first: string[], second: string[], cwd: string): Promise<void> {
  // `openssl A | openssl B`, without a shell: the first process's stdout is the second's stdin.
  const producer = spawn(openssl, first, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const consumer = spawn(openssl, second, { cwd, stdio: [producer.stdout, 'ignore', 'pipe'] });
  producer.stdout.destroy(); // the consumer holds the pipe now; our end left open would keep 'close' from firing
  const errors: Buffer[] = [];
  for (const child of [producer, consumer]) child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  const exitCodes = await Promise.all([producer, consumer].map((child) => new Promise<number | null>((resolve) => child.once('close', resolve))));
  if (exitCodes.some((code) => code !== 0)) {
    throw new Error(`openssl ${first.join(' ')} | openssl ${second.join(' ')} failed: ${Buffer.concat(errors).toString()}`);
  }
}

const perOp = (m: Measurement) => `${m.perOpMs.toFixed(1)} ms/op (${m.opsPerSecond.toFixed(1)} op/s, p95 ${m.p95Ms!.toFixed(1)} ms)`;
const ratioLine = (ours: Measurement, openssl: Measurement) => {
  const ratio = ours.opsPerSecond / openssl.opsPerSecond;
  return `  ratio ours ÷ OpenSSL ${ratio.toFixed(2)}x (target ≥ ${TARGET_RATIO}x OpenSSL: ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'})`;
};

export async function directSmimeBenchmarks(): Promise<string[]> {
  if (!opensslBinary) return ['Direct S/MIME: skipped, the openssl command line is not installed (it is the baseline).'];
  const openssl = opensslBinary;
  const ca = await createCertificateAuthority({ commonName: 'Bench CA', organization: 'Bench', validDays: 30 });
  const [sender, recipient] = await Promise.all([
    issueDirectCertificate(ca, { address: 'sender@direct.lakeside.example.org', usage: 'both', validDays: 30 }),
    issueDirectCertificate(ca, { address: 'recipient@direct.riverview.example.org', usage: 'both', validDays: 30 }),
  ]);
  // A Direct message wrapped as message/rfc822 with a 1 MB base64 attachment, CRLF throughout.
  const attachment = randomBytes(786_432).toString('base64').replace(/.{76}/g, '$&\r\n');
  const entity = Buffer.from(
    'Content-Type: message/rfc822\r\n\r\nFrom: sender@direct.lakeside.example.org\r\nTo: recipient@direct.riverview.example.org\r\n' +
      'Subject: Referral\r\nMIME-Version: 1.0\r\nContent-Type: application/pdf; name="referral.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n' +
      `${attachment}\r\n`,
  );

  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-smime-'));
  try {
    const pem = (key: typeof sender.privateKey) => key.export({ type: 'pkcs8', format: 'pem' });
    writeFileSync(path.join(dir, 'entity.txt'), entity);
    writeFileSync(path.join(dir, 'ca.pem'), ca.certificatePem);
    writeFileSync(path.join(dir, 'sender.pem'), sender.certificatePem);
    writeFileSync(path.join(dir, 'sender.key'), pem(sender.privateKey));
    writeFileSync(path.join(dir, 'recipient.pem'), recipient.certificatePem);
    writeFileSync(path.join(dir, 'recipient.key'), pem(recipient.privateKey));

    const signer = { certificate: sender.certificateDer, privateKey: sender.privateKey, chain: [ca.certificateDer] };
    const keys = [{ certificate: recipient.certificateDer, privateKey: recipient.privateKey }];
    const sign = ['cms', '-sign', '-md', 'sha256', '-signer', 'sender.pem', '-inkey', 'sender.key', '-certfile', 'ca.pem', '-in', 'entity.txt'];
    const encrypt = ['cms', '-encrypt', '-aes256', '-recip', 'recipient.pem', '-keyopt', 'rsa_padding_mode:oaep', '-out', 'message.txt'];
    const decrypt = ['cms', '-decrypt', '-recip', 'recipient.pem', '-inkey', 'recipient.key', '-in', 'message.txt'];
    const verify = ['cms', '-verify', '-CAfile', 'ca.pem', '-out', 'content.txt'];

    const oursOut = await measure('ours', ITERATIONS, () => signEntity(entity, signer).then((signed) => encryptEntity(signed, [recipient.certificateDer])), WARMUP);
    const opensslOut = await measure('openssl', ITERATIONS, () => run(openssl, sign, encrypt, dir), WARMUP);

    // Both sides open the same message, OpenSSL's, as a peer HISP would send it.
    const message = readFileSync(path.join(dir, 'message.txt'));
    const oursIn = await measure(
      'ours',
      ITERATIONS,
      async () => {
        const verified = await verifySignedEntity((await decryptEntity(message, keys)).entity);
        if (!verifyChain(verified.signer, [ca.certificateDer], new Date(), verified.certificates).ok) throw new Error('untrusted');
      },
      WARMUP,
    );
    const opensslIn = await measure('openssl', ITERATIONS, () => run(openssl, decrypt, verify, dir), WARMUP);
    if (!readFileSync(path.join(dir, 'content.txt')).equals(entity)) throw new Error('OpenSSL did not return the entity');

    return [
      `Direct S/MIME: a ${(entity.length / 1e6).toFixed(2)} MB message (RSA 2048, SHA-256, AES-256-CBC, RSA-OAEP), ${ITERATIONS} timed runs each after ${WARMUP} warm-up runs, wall-clock`,
      `  sign+encrypt ours (signEntity + encryptEntity): ${perOp(oursOut)}`,
      `    baseline openssl cms -sign -md sha256 | openssl cms -encrypt -aes256 -keyopt rsa_padding_mode:oaep, including process start: ${perOp(opensslOut)}`,
      ratioLine(oursOut, opensslOut),
      `  decrypt+verify ours (decryptEntity + verifySignedEntity + trust.ts verifyChain): ${perOp(oursIn)}`,
      `    baseline openssl cms -decrypt | openssl cms -verify -CAfile, including process start: ${perOp(opensslIn)}`,
      ratioLine(oursIn, opensslIn),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { testConfig } from '../../test/app.ts';
import { clamdMissing, EICAR, EICAR_SIGNATURE, freePort, startClamd } from '../../test/clamd.ts';
import { clamdScanner, parseClamdUrl } from './clamd.ts';
import { ScannerUnavailableError } from './scanner.ts';

describe('CLAMD_URL', () => {
  it('is tcp://host:port, unix:///path or an absolute socket path', () => {
    expect(parseClamdUrl('tcp://127.0.0.1:3310')).toEqual({ host: '127.0.0.1', port: 3310 });
    expect(parseClamdUrl('tcp://clamav.internal:3310/')).toEqual({ host: 'clamav.internal', port: 3310 });
    expect(parseClamdUrl('tcp://[::1]:3310')).toEqual({ host: '::1', port: 3310 });
    expect(parseClamdUrl('/run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
    expect(parseClamdUrl('unix:///run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
    for (const wrong of ['tcp://127.0.0.1', 'http://127.0.0.1:3310', 'clamd:3310', 'tcp://host:3310/x', 'relative/clamd.ctl', 'unix://']) {
      expect(parseClamdUrl(wrong), wrong).toBeNull();
    }
  });

  it('is checked at start-up: a wrong one refuses to start, none means uploads are not scanned', () => {
    expect(() => testConfig({ CLAMD_URL: 'localhost:3310' })).toThrow(/CLAMD_URL: must be tcp:\/\/host:port or the path of clamd's unix socket/);
    expect(testConfig({ CLAMD_URL: 'tcp://127.0.0.1:3310' }).clamd).toEqual({ host: '127.0.0.1', port: 3310 });
    expect(testConfig().clamd).toBeUndefined();
  });
});

const eicar = new TextEncoder().encode(EICAR);

describe('the clamd adapter without clamd', () => {
  it('gives up when clamd accepts the connection but never answers', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const scanner = clamdScanner({ host: '127.0.0.1', port }, { readTimeoutMs: 300 });
      await expect(scanner.scan(eicar)).rejects.toThrow(/no reply within 300 ms/);
    } finally {
      silent.close();
    }
  });
});

const missing = clamdMissing();

describe.skipIf(missing)(`the clamd INSTREAM adapter against a real clamd${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('finds EICAR, passes a clean PDF and a file of several chunks, over TCP and the unix socket', async () => {
    const clamd = await startClamd();
    try {
      for (const scanner of [clamdScanner(clamd.tcp), clamdScanner({ path: clamd.socketPath })]) {
        expect(await scanner.ping()).toBe(true);
        expect(await scanner.scan(eicar)).toEqual({ clean: false, signature: EICAR_SIGNATURE });
        const pdf = await PDFDocument.create();
        pdf.addPage().drawText('Cardiology referral');
        expect(await scanner.scan(await pdf.save())).toEqual({ clean: true });
        // 300 KB: five chunks of the stream; the EICAR hash signature covers the whole file only.
        const large = new Uint8Array(300_000).map((_, i) => i % 251);
        expect(await scanner.scan(large)).toEqual({ clean: true });
      }
    } finally {
      await clamd.stop();
    }
  });

  it('refuses to give a verdict when clamd drops the stream over its StreamMaxLength, or is not there', async () => {
    const clamd = await startClamd({ streamMaxLength: '100K' });
    try {
      const tooLong = new Uint8Array(300_000);
      // clamd answers "INSTREAM size limit exceeded" and closes; when its reset overtakes that reply (an OS race), the
      // adapter says the connection closed before the stream's end. Either way there is no verdict.
      await expect(clamdScanner(clamd.tcp).scan(tooLong)).rejects.toThrow(/size limit exceeded|before the stream's end/i);
      // With the cap set to clamd's limit, the stream is not even sent.
      await expect(clamdScanner(clamd.tcp, { maxStreamBytes: 100 * 1024 }).scan(tooLong)).rejects.toThrow(/exceed its stream limit/);
    } finally {
      await clamd.stop();
    }
    const closed = clamdScanner({ host: '127.0.0.1', port: await freePort() });
    await expect(closed.scan(eicar)).rejects.toBeInstanceOf(ScannerUnavailableError);
    expect(await closed.ping()).toBe(false);
  });

});

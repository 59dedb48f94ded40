import { describe, expect, it } from 'vitest';
import { useTestApp, createTestApp } from '../../test/app.ts';

describe('health', () => {
  const t = useTestApp();

  it('answers ok with the database', async () => {
    const res = await t.call(null, 'GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', antivirus: 'not configured — uploads are not scanned' });
  });

  it('answers 503 when the database does not answer', async () => {
    const broken = await createTestApp();
    await broken.handle.close();
    const res = await broken.call(null, 'GET', '/api/health');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', database: 'unavailable', antivirus: 'not configured — uploads are not scanned' });
    await broken.app.close();
  });
});

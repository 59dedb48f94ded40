import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.ts';

const connectSrc = (csp: unknown) => /(?:^|;\s*)connect-src ([^;]*)/.exec(String(csp))?.[1];

describe('security headers behind an https PUBLIC_URL', () => {
  const t = useTestApp({ config: { PUBLIC_URL: 'https://relay.example.org' } });

  it('pin browsers to https and let scripts connect to this origin and its WebSocket origin only', async () => {
    for (const url of ['/api/health', '/account/login', '/api/nothing-here']) {
      const res = await t.call(null, 'GET', url);
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect(connectSrc(res.headers['content-security-policy']), url).toBe("'self' wss://relay.example.org http://localhost:8090");
    }
  });
});

describe('security headers behind an http PUBLIC_URL', () => {
  const t = useTestApp({ config: { PUBLIC_URL: 'http://relay.internal:8080/' } });

  it('send no HSTS and allow the ws origin of PUBLIC_URL, port included', async () => {
    const res = await t.call(null, 'GET', '/api/health');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(connectSrc(res.headers['content-security-policy'])).toBe("'self' ws://relay.internal:8080 http://localhost:8090");
  });
});

describe('security headers without PUBLIC_URL (development)', () => {
  const t = useTestApp();

  it("send no HSTS and allow 'self' and the emergency-organization service alone, never any ws: or wss: host", async () => {
    const res = await t.call(null, 'GET', '/api/health');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(connectSrc(res.headers['content-security-policy'])).toBe("'self' http://localhost:8090");
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './test/app.ts';

describe('the HTTP surface', () => {
  const web = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-web-'));
  mkdirSync(path.join(web, 'assets'));
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>ClinicRelay</title><div id="root"></div>');
  writeFileSync(path.join(web, 'assets', 'app-1234.js'), 'console.log(1)');
  const t = useTestApp({ config: { WEB_DIST_DIR: web } });

  it('sends security headers on every response and no X-Powered-By', async () => {
    for (const url of ['/api/health', '/', '/intake', '/api/nothing-here']) {
      const res = await t.call(null, 'GET', url);
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('marks API responses no-store, including errors', async () => {
    expect((await t.call(null, 'GET', '/api/health')).headers['cache-control']).toBe('no-store');
    expect((await t.call(null, 'GET', '/api/users/profiledata')).headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown /api path with a 404 in the error shape', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await t.call('user@lakeside.example.org', method, '/api/does/not/exist');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'The resource you are looking for was not found.' });
    }
  });

  it('serves the SPA for deep links and files as they are', async () => {
    const deep = await t.call(null, 'GET', '/release/draft/123?returnUrl=%2Fintake');
    expect(deep.statusCode).toBe(200);
    expect(deep.headers['content-type']).toContain('text/html');
    expect(deep.body).toContain('<div id="root">');
    expect(deep.headers['cache-control']).toBe('no-cache');
    const asset = await t.call(null, 'GET', '/assets/app-1234.js');
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers malformed JSON with a 400 in the error shape, not a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/account/login', headers: { 'content-type': 'application/json' }, payload: '{"userName":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it('serves the OpenAPI document to system administrators only', async () => {
    const res = await t.call('sysadmin@example.org', 'GET', '/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/account/login', '/api/users/profiledata', '/api/account/change']));
    expect(doc.paths['/api/account/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('userName');
    expect((await t.call('admin@lakeside.example.org', 'GET', '/api/openapi.json')).statusCode).toBe(403);
    expect((await t.call('reporting@example.org', 'GET', '/api/openapi.json')).statusCode).toBe(403);
    expect((await t.call(null, 'GET', '/api/openapi.json')).statusCode).toBe(401);
  });

  it('lets a system administrator browse /api/docs with the cookie set at sign-in', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'sysadmin@example.org', password: 'Demo-pass-2026!' } });
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^cr_docs=[^;]+; Path=\/api\/docs; HttpOnly; SameSite=Strict/);
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/', headers: { cookie: cookie.split(';')[0]! } });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(401);
    const userLogin = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'user@lakeside.example.org', password: 'Demo-pass-2026!' } });
    const userCookie = String(userLogin.headers['set-cookie']).split(';')[0]!;
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/', headers: { cookie: userCookie } })).statusCode).toBe(403);
  });

  it('does not accept the docs cookie on other API routes', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'sysadmin@example.org', password: 'Demo-pass-2026!' } });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    expect((await t.app.inject({ method: 'GET', url: '/api/users/profiledata', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('request ids', () => {
  const t = useTestApp();

  it("keep a load balancer's id and replace anything that does not look like one", async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(kept.headers['x-request-id']).toBe('lb-1234.abc');
    const replaced = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'evil\nline' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { consumeRedirect, isStorableRedirect, storeRedirect } from './redirect.ts';

describe('redirect rules (end-user §2)', () => {
  beforeEach(() => sessionStorage.clear());

  it.each([
    '/unauthorized',
    '/access-denied',
    '/auth-error',
    '/callback',
    '/account/login',
    '/account/login/okta',
    '/account/register',
    '/account/logout',
    '/register/acme',
    '/',
    '/?email=someone@example.org',
    '/admin',
    '/admin/',
    '/ADMIN',
    '/Account/Login/',
  ])('never stores %s', (url) => {
    expect(isStorableRedirect(url)).toBe(false);
    expect(storeRedirect(url)).toBe(false);
    expect(consumeRedirect()).toBeNull();
  });

  it.each(['/intake', '/release/draft/42?returnUrl=%2Fintake', '/admin/networks', '/admin/dashboard/messaging', '/Release/New/'])(
    'stores %s',
    (url) => {
      expect(storeRedirect(url)).toBe(true);
      expect(consumeRedirect()).toBe(url);
    },
  );

  it('refuses URLs that would leave the site', () => {
    expect(isStorableRedirect('//evil.example/intake')).toBe(false);
    expect(isStorableRedirect('/\\evil.example')).toBe(false);
    expect(isStorableRedirect('https://evil.example/intake')).toBe(false);
  });

  it('gives the stored URL back once', () => {
    storeRedirect('/release');
    expect(consumeRedirect()).toBe('/release');
    expect(consumeRedirect()).toBeNull();
  });

  it('keeps the latest stored URL', () => {
    storeRedirect('/intake');
    storeRedirect('/release');
    expect(consumeRedirect()).toBe('/release');
  });

  it('keeps the previous URL when a never-stored path comes later', () => {
    storeRedirect('/intake');
    storeRedirect('/account/login');
    expect(consumeRedirect()).toBe('/intake');
  });
});

import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { logoMessages } from '@clinicrelay/contracts/logos.ts';
import { resellerMessages } from '@clinicrelay/contracts/resellers.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const LIST = 'GET /api/resellers?pageNumber=1&pageSize=10&sortDir=asc';
const acme = {
  id: '5b7a4c1e-0000-4000-8000-000000000001',
  type: 1,
  name: 'Acme Resale',
  affiliateUrlTag: 'acme-tag',
  sponsor: null,
  registrationText: null,
  welcomeText: null,
  welcomeMessageId: null,
  urlCode: 'acme',
  fullUrl: 'https://relay.example.org/register/acme',
  logoUrl: null,
  logoFileName: null,
  logoBackgroundColor: 'e6e9ed',
  bypassTos: false,
  faxHandledByReseller: false,
};

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start() {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [LIST]: () => json(200, { resellers: [acme], totalResellersCount: 1 }),
      'GET /api/resellers/urlexists?id=&code=acme': () => json(200, true),
      'GET /api/resellers/urlcode?urlCode=acme': () => json(200, { urlCode: 'acme', fullUrl: 'https://relay.example.org/register/acme' }),
      'GET /api/resellers/urlexists?id=&code=sunrise': () => json(200, false),
      'GET /api/resellers/urlcode?urlCode=sunrise': () => json(200, { urlCode: 'sunrise', fullUrl: 'https://relay.example.org/register/sunrise' }),
      'GET /api/resellers/urlexists?id=&code=my-admin': () => json(200, false),
      'GET /api/resellers/urlcode?urlCode=my-admin': () => json(400, { message: resellerMessages.urlReserved, modelState: { urlCode: [resellerMessages.urlReserved] } }),
      'POST /api/resellers': () => json(200, { ...acme, id: '5b7a4c1e-0000-4000-8000-000000000002', name: 'Sunrise', urlCode: 'sunrise' }),
    },
  });
  uninstall = renderApp('/admin/resellers').uninstall;
  return api;
}

describe('Resellers', { timeout: 30_000 }, () => {
  it('lists name, type, full URL and affiliate URL tag', async () => {
    start();
    const row = (await screen.findByText('Acme Resale')).closest('tr')!;
    expect(within(row).getByText('Licensing')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'https://relay.example.org/register/acme' })).toBeTruthy();
    expect(within(row).getByText('acme-tag')).toBeTruthy();
  });

  it('checks the URL code as it is typed, shows the register URL, and saves the reseller with its logo as multipart', async () => {
    const { fetchStub } = start();
    // applyAccept off: the file dialog's filter can be switched to "All files".
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await user.click(await screen.findByRole('button', { name: 'Add reseller' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add reseller' });
    const code = within(dialog).getByRole('textbox', { name: 'Url Code' });

    for (const [typed, message] of [
      ['a--b', resellerMessages.urlConsecutive],
      ['a b', resellerMessages.urlCodeCharacters],
      ['acme', resellerMessages.urlCodeExists],
      ['my-admin', resellerMessages.urlReserved],
    ] as const) {
      await user.clear(code);
      await user.type(code, typed);
      expect(await within(dialog).findByText(message), typed).toBeTruthy();
    }
    await user.clear(code);
    await user.type(code, 'sunrise');
    expect(await within(dialog).findByText('Register URL: https://relay.example.org/register/sunrise')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Sunrise');
    const fileInput = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(fileInput, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(logoMessages.type)).toBeTruthy();

    await user.upload(fileInput, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add reseller' })).toBeNull());
    expect(await screen.findByText(resellerMessages.saved)).toBeTruthy();

    const post = fetchStub.mock.calls.find(([, init]) => init?.method === 'POST')!;
    const form = post[1]!.body as FormData;
    expect(JSON.parse(form.get('reseller') as string)).toMatchObject({ name: 'Sunrise', urlCode: 'sunrise', type: 0, logoBackgroundColor: 'ffffff' });
    expect((form.get('logo') as File).name).toBe('logo.png');
  });
});

import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { certificateMessages as text } from '@clinicrelay/contracts/certificates.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { expiresSoon } from './certificates-page.tsx';

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const organizations = [{ id: 'o1', name: 'Lakeside Family Medicine' }];
const domain = { id: 'c1', name: 'lakeside-domain', thumbprint: '2EF61EE65BAF62A6BD131DF435B108159999CB10', notAfter: inDays(365), version: 2, enabled: true, organizations };
const soon = { id: 'c2', name: 'lakeside-intake', thumbprint: 'AB'.repeat(20), notAfter: inDays(10), version: 1, enabled: false, organizations: [] };
const detail = {
  ...domain,
  usage: 'both',
  subject: 'CN=lakeside.direct.example.org',
  subjectAltNames: { rfc822Names: [], dnsNames: ['lakeside.direct.example.org'] },
  thumbprintSha256: 'CD'.repeat(32),
  notBefore: inDays(-1),
  chainLength: 1,
};
const LIST = 'GET /api/configuration/certificates?pageNumber=1&pageSize=10&sortDir=asc';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [LIST]: () => json(200, { items: [domain, soon], totalCount: 2 }),
      [`${LIST}&col=name`]: () => json(200, { items: [domain, soon], totalCount: 2 }),
      'GET /api/configuration/certificates/lakeside-domain': () => json(200, detail),
      ...handlers,
    },
  });
  uninstall = renderApp('/admin/certificates').uninstall;
  return api;
}

const pfx = () => new File([new Uint8Array([0x30, 0x82])], 'lakeside.pfx', { type: 'application/x-pkcs12' });

describe('Certificates', { timeout: 30_000 }, () => {
  it('marks an expiry within 30 days or past', () => {
    expect(expiresSoon(inDays(29))).toBe(true);
    expect(expiresSoon(inDays(-1))).toBe(true);
    expect(expiresSoon(inDays(31))).toBe(false);
  });

  it('lists certificates, and adds one: the password waits for a file, the form posts name, file, password, useExistingName', async () => {
    const { fetchStub } = start({ 'POST /api/configuration/certificates': () => json(200, detail) });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('lakeside-domain')).toBeTruthy();
    expect(screen.getByText(domain.thumbprint)).toBeTruthy();
    expect(screen.getByText('Lakeside Family Medicine')).toBeTruthy();
    const soonDate = screen.getByText(new Date(soon.notAfter).toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' }));
    expect(soonDate.getAttribute('style') ?? soonDate.className).toMatch(/red/);

    await user.click(screen.getByRole('button', { name: 'Add certificate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add certificate' });
    const password = within(dialog).getByLabelText<HTMLInputElement>('Password');
    expect(password.disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Name is required.')).toBeTruthy();
    expect(within(dialog).getByText(text.fileRequired)).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'lakeside-new');
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, pfx());
    await waitFor(() => expect(within(dialog).getByLabelText<HTMLInputElement>('Password').disabled).toBe(false));
    await user.type(within(dialog).getByLabelText('Password'), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(text.saved)).toBeTruthy();
    const form = fetchStub.mock.calls.map(([, init]) => init?.body).find((body): body is FormData => body instanceof FormData)!;
    expect(Object.fromEntries([...form.entries()].filter(([key]) => key !== 'file'))).toEqual({ name: 'lakeside-new', password: 'secret', useExistingName: 'false' });
    expect((form.get('file') as File).name).toBe('lakeside.pfx');
  });

  it('edits under the same name (not editable) and toasts the server reason of a refused file', async () => {
    const refused = { message: 'The password is wrong for this certificate file.', modelState: { password: ['The password is wrong for this certificate file.'] } };
    const { fetchStub } = start({ 'POST /api/configuration/certificates': () => json(400, refused) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit lakeside-domain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit certificate' });
    expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: 'Name' }).disabled).toBe(true);
    expect(await within(dialog).findByText(/CN=lakeside.direct.example.org/)).toBeTruthy();
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, pfx());
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(`${text.uploadFailed}: ${refused.message}`)).toBeTruthy();
    const form = fetchStub.mock.calls.map(([, init]) => init?.body).find((body): body is FormData => body instanceof FormData)!;
    expect(form.get('name')).toBe('lakeside-domain');
    expect(form.get('useExistingName')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Edit certificate' })).toBeTruthy();
  });

  it('toggles enabled, and toasts the spec text when the server refuses', async () => {
    const { calls } = start({
      'PUT /api/configuration/certificates/lakeside-domain/enable': () => json(200, { ...detail, enabled: false }),
      'PUT /api/configuration/certificates/lakeside-intake/enable': () => json(500, { message: 'boom' }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('switch', { name: 'Enabled: lakeside-domain' }));
    expect(await screen.findByText(text.disabled)).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/configuration/certificates/lakeside-domain/enable')?.body).toEqual({ enabled: false });
    await user.click(screen.getByRole('switch', { name: 'Enabled: lakeside-intake' }));
    expect(await screen.findByText(text.enableFailed)).toBeTruthy();
  });

  it('toasts when the certificate cannot be read for editing', async () => {
    start({ 'GET /api/configuration/certificates/lakeside-domain': () => json(500, { message: 'boom' }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit lakeside-domain' }));
    expect(await screen.findByText(text.loadFailed)).toBeTruthy();
  });
});

import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadMessages as text } from '@clinicrelay/contracts/downloads.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const ID = '7d1f0a3e-0000-4000-8000-000000000001';
const desktop = {
  id: ID,
  displayName: 'ClinicRelay Desktop',
  downloadTag: 'desktop',
  name: 'ClinicRelayDesktop',
  description: 'Print from Windows.',
  brandId: null,
  brandName: null,
  platform: { os: 'Windows', version: '10', supportedVersions: '10, 11' },
  isDownloadable: true,
  downloadOnFree: true,
  isVisible: true,
  isActive: false,
  version: '2.1.0',
  fileName: 'setup.exe',
  sizeInBytes: 2048,
  contentType: 'application/octet-stream',
  sha256: 'a'.repeat(64),
  downloadUrl: `/api/downloads/${ID}/download`,
  createDate: '2026-03-01T10:00:00.000Z',
  modifiedDate: '2026-03-01T10:00:00.000Z',
};
const LIST = 'GET /api/downloads/getpaged?pageNumber=1&pageSize=10&sortDir=asc&col=displayName';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(extra: Record<string, (body: unknown) => Response> = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [LIST]: () => json(200, { items: [desktop], totalCount: 1 }),
      'GET /api/admin/brands?pageSize=100': () => json(200, { items: [{ id: 'clinicrelay', name: 'ClinicRelay', settings: {} }], totalCount: 1 }),
      'POST /api/downloads/upload': () => json(200, desktop),
      [`PUT /api/downloads/${ID}/update`]: () => json(200, desktop),
      [`PUT /api/downloads/${ID}/activate`]: () => json(200, { ...desktop, isActive: true }),
      [`DELETE /api/downloads/${ID}`]: () => json(200, { ok: true }),
      ...extra,
    },
  });
  uninstall = renderApp('/admin/downloads').uninstall;
  return api;
}

describe('Downloads (back office)', { timeout: 30_000 }, () => {
  it('lists the downloadable files and creates one with its file, asking for the fields the spec requires', async () => {
    const { fetchStub } = start();
    const user = userEvent.setup({ delay: null });
    const row = (await screen.findByText('ClinicRelay Desktop')).closest('tr')!;
    for (const cell of ['desktop', 'Name: ClinicRelayDesktop', 'All brands', 'Windows 10', '2.1.0', 'Visible: Yes']) expect(within(row).getByText(cell)).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Copy the link of ClinicRelay Desktop' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add download' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add download' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Display name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Download tag is required.')).toBeTruthy();
    expect(within(dialog).getByText(text.fileRequired)).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Display name' }), 'Print driver');
    await user.type(within(dialog).getByRole('textbox', { name: 'Download tag' }), 'driver');
    await user.type(within(dialog).getByRole('textbox', { name: 'Platform OS' }), 'Windows');
    await user.type(within(dialog).getByRole('textbox', { name: 'Version' }), '1.0');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Download on free' }));
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['MZ'], 'driver.msi'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add download' })).toBeNull());
    const form = fetchStub.mock.calls.map(([, init]) => init?.body).find((body): body is FormData => body instanceof FormData)!;
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== 'file'))).toEqual({
      displayName: 'Print driver',
      downloadTag: 'driver',
      name: '',
      description: '',
      'platform.os': 'Windows',
      isDownloadable: 'true',
      downloadOnFree: 'false',
      isVisible: 'true',
      version: '1.0',
    });
    expect((form.get('file') as File).name).toBe('driver.msi');
    expect(await screen.findByText(text.saved)).toBeTruthy();
  });

  it('activates a file, edits it without a new file as JSON, and deletes it after confirming', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('switch', { name: 'Active: ClinicRelay Desktop' }));
    expect(await screen.findByText(text.activated)).toBeTruthy();
    expect(calls.some((c) => c.key === `PUT /api/downloads/${ID}/activate`)).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Edit ClinicRelay Desktop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit download' });
    const version = within(dialog).getByRole('textbox', { name: 'Version' });
    await user.clear(version);
    await user.type(version, '2.2.0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === `PUT /api/downloads/${ID}/update`)?.body).toMatchObject({ displayName: 'ClinicRelay Desktop', version: '2.2.0', platform: { os: 'Windows' } }));

    await user.click(await screen.findByRole('button', { name: 'Delete ClinicRelay Desktop' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete download' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(text.deleted)).toBeTruthy();
    expect(calls.some((c) => c.key === `DELETE /api/downloads/${ID}`)).toBe(true);
  });

  it('toasts "not created" and shows the server reason at its field', async () => {
    start({ 'POST /api/downloads/upload': () => json(400, { message: text.versionTaken, modelState: { version: [text.versionTaken] } }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add download' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add download' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Display name' }), 'Again');
    await user.type(within(dialog).getByRole('textbox', { name: 'Download tag' }), 'desktop');
    await user.type(within(dialog).getByRole('textbox', { name: 'Version' }), '2.1.0');
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['MZ'], 'again.exe'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.versionTaken)).toBeTruthy();
    expect(await screen.findByText(text.notCreated)).toBeTruthy();
  });
});

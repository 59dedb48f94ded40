import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadMessages as text } from '@clinicrelay/contracts/downloads.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';

const ID = '7d1f0a3e-0000-4000-8000-000000000001';
const desktop = {
  id: ID,
  displayName: 'ClinicRelay Desktop',
  name: 'ClinicRelayDesktop',
  description: 'Print to ClinicRelay from any Windows application.',
  platform: { os: 'Windows', version: '10', supportedVersions: '10, 11' },
  version: '2.1.0',
  isDownloadable: true,
  fileName: 'ClinicRelay Setup.exe',
  sizeInBytes: 3 * 1024 * 1024,
  downloadUrl: `/api/downloads/${ID}/download`,
  modifiedDate: '2026-03-01T10:00:00.000Z',
};
const soon = { ...desktop, id: '7d1f0a3e-0000-4000-8000-000000000002', displayName: 'Mac print driver', name: null, description: null, platform: { os: 'macOS', version: null, supportedVersions: null }, version: null, isDownloadable: false };

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  vi.restoreAllMocks();
});

function start(handlers: ApiStubOptions['handlers']) {
  signIn();
  const api = stubApi({ profile: demoProfile({ roles: ['User'] }), handlers });
  uninstall = renderApp('/downloads').uninstall;
  return api;
}

describe('Downloads', { timeout: 30_000 }, () => {
  it('lists what the platform published, with platform and version, and downloads a file', async () => {
    const createObjectURL = vi.fn(() => 'blob:download');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    let status = 200;
    start({
      'GET /api/downloads': () => json(200, [desktop, soon]),
      [`GET /api/downloads/${ID}/download`]: () =>
        status === 200
          ? new Response('MZ installer', { status: 200, headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': `attachment; filename="ClinicRelay Setup.exe"; filename*=UTF-8''ClinicRelay%20Setup.exe` } })
          : json(404, { message: 'The resource you are looking for was not found.' }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Downloads' })).toBeTruthy();
    const row = (await screen.findByText('ClinicRelay Desktop')).closest('tr')!;
    expect(within(row).getByText('Print to ClinicRelay from any Windows application.')).toBeTruthy();
    expect(within(row).getByText('Windows 10')).toBeTruthy();
    expect(within(row).getByText('Supported: 10, 11')).toBeTruthy();
    expect(within(row).getByText('2.1.0')).toBeTruthy();
    expect(within(row).getByText('3.0 MB')).toBeTruthy();
    const other = screen.getByText('Mac print driver').closest('tr')!;
    expect(within(other).getByText('Not available for download')).toBeTruthy();
    expect(within(other).queryByRole('button')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Download ClinicRelay Desktop' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('ClinicRelay Setup.exe');
    expect(createObjectURL).toHaveBeenCalled();

    status = 404;
    fireEvent.click(within(row).getByRole('button', { name: 'Download ClinicRelay Desktop' }));
    expect(await screen.findByText(text.downloadFailed)).toBeTruthy();
  });

  it('says so when nothing has been published yet', async () => {
    start({ 'GET /api/downloads': () => json(200, []) });
    expect(await screen.findByText(text.empty)).toBeTruthy();
  });
});

import { useState, type ReactNode } from 'react';
import { Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { EVENTS_REPORT_PAGE_SIZE, reportFileNames, reportMessages as text } from '@clinicrelay/contracts/reports.ts';
import { downloadOrganizationsReport, downloadReport, type CsvDownload } from '../../api/reports.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { notifyError } from '../../components/notify.ts';
import { saveFile } from '../../components/save-file.ts';
import { DateRangeReportModal, OrganizationSelectModal } from './report-modals.tsx';

type Open = { kind: 'devices' } | { kind: 'messages' } | { kind: 'organizations'; title: string; path: string; fileName: string } | null;

async function save(download: () => Promise<CsvDownload>) {
  try {
    const file = await download();
    saveFile(file.blob, file.fileName);
    return true;
  } catch {
    notifyError(text.downloadFailed);
    return false;
  }
}

function Tile({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="xs" h="100%" justify="space-between">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Card>
  );
}

// back-office-a §2 "Reports": one tile per report; every report is a CSV file.
export function ReportsPage() {
  usePageTitle('Reports');
  const { profile } = useSession();
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const direct = (path: string) => async () => {
    setBusy(path);
    await save(() => downloadReport(path));
    setBusy(null);
  };
  const downloadButton = (path: string, label = 'Download') => (
    <Button variant="light" onClick={() => void direct(path)()} loading={busy === path}>
      {label}
    </Button>
  );
  const organizationsTile = (title: string, path: string, fileName: string, description: string) => (
    <Tile title={title} description={description}>
      <Button variant="light" onClick={() => setOpen({ kind: 'organizations', title, path, fileName })}>
        Choose organizations
      </Button>
    </Tile>
  );

  return (
    <Stack gap="md">
      <Title order={1}>Reports</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} spacing="md">
        {profile.roles.includes('SysAdmin') && (
          <Tile title="Generated Reports" description="Monthly usage reports per organization, made by the platform.">
            <Button variant="light" component={Link} to="/admin/generatedreports">
              Open
            </Button>
          </Tile>
        )}
        <Tile title="Devices" description="Sign-ins with their device, address and session times, for a date range.">
          <Button variant="light" onClick={() => setOpen({ kind: 'devices' })}>
            Choose dates
          </Button>
        </Tile>
        <Tile title="Direct Addresses" description="Every organization's Direct addresses with their status.">
          {downloadButton('directaddresses')}
        </Tile>
        <Tile title="Organizations" description="Organizations with their plan, contact, state and counts of users and addresses.">
          {downloadButton('organizations')}
        </Tile>
        <Tile title="Users" description="Users with their roles, organizations, security settings and last sign-in.">
          {downloadButton('users')}
        </Tile>
        <Tile title="Messages" description={`Message events for a date range, ${EVENTS_REPORT_PAGE_SIZE.toLocaleString()} to a page.`}>
          <Button variant="light" onClick={() => setOpen({ kind: 'messages' })}>
            Choose dates
          </Button>
        </Tile>
        {organizationsTile('Unassigned Addresses', 'addresses/unassigned', reportFileNames.unassignedAddresses, 'Addresses no intake rule brings to a user.')}
        {organizationsTile('Intake Rules', 'intakerules', reportFileNames.intakeRules, 'Intake rules with their addresses and users.')}
        {organizationsTile('Download Profiles', 'downloadprofiles', reportFileNames.downloadProfiles, 'How each organization prints or exports documents.')}
        <Tile title="Download Contacts Statistics" description="Directory contacts and invitations per organization.">
          {downloadButton('contacts-usage-statistics')}
        </Tile>
      </SimpleGrid>

      {open?.kind === 'devices' && (
        <DateRangeReportModal
          title="Devices Report"
          onClose={() => setOpen(null)}
          onDownload={async ({ start, end }) => {
            if (await save(() => downloadReport('devices', { startDate: start, endDate: end }))) setOpen(null);
          }}
        />
      )}
      {open?.kind === 'messages' && (
        <DateRangeReportModal
          title="Messages Report"
          withPageNumber
          onClose={() => setOpen(null)}
          onDownload={async ({ start, end, pageNumber }) => {
            if (await save(() => downloadReport('events', { start, end, pageSize: String(EVENTS_REPORT_PAGE_SIZE), pageNumber: String(pageNumber) }))) setOpen(null);
          }}
        />
      )}
      {open?.kind === 'organizations' && (
        <OrganizationSelectModal
          title={open.title}
          onClose={() => setOpen(null)}
          onDownload={async (ids) => {
            if (await save(() => downloadOrganizationsReport(open.path, ids, open.fileName))) setOpen(null);
          }}
        />
      )}
    </Stack>
  );
}

import { Anchor, Group, Stack, Tabs, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/page-title.ts';
import { BatchStatusTab } from './batch-status-tab.tsx';
import { OrganizationImportTab } from './organization-import-tab.tsx';

const TABS = { status: 'Status', import: 'Organization import' } as const;
type Tab = keyof typeof TABS;

/** /admin/batchimports (back-office-b §2): tabs Status and Organization import; Close returns to the organizations list. */
export function BatchImportsPage() {
  usePageTitle('Batch imports');
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'import' ? 'import' : 'status';
  const show = (next: Tab) =>
    setParams(() => {
      // A tab starts with its own list state.
      const fresh = new URLSearchParams();
      if (next === 'import') fresh.set('tab', 'import');
      return fresh;
    });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Batch imports</Title>
        <Anchor component={Link} to="/admin/organizations">
          Close
        </Anchor>
      </Group>
      <Tabs value={tab} onChange={(value) => value && show(value as Tab)} keepMounted={false}>
        <Tabs.List>
          {(Object.keys(TABS) as Tab[]).map((t) => (
            <Tabs.Tab key={t} value={t}>
              {TABS[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="status" pt="md">
          <BatchStatusTab />
        </Tabs.Panel>
        <Tabs.Panel value="import" pt="md">
          <OrganizationImportTab onImported={() => show('status')} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

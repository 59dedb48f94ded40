import { Stack, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/page-title.ts';
import { EmergenciesTab } from './emergencies-tab.tsx';
import { OrganizationsTab } from './organizations-tab.tsx';

type Tab = 'emergencies' | 'organizations';

/** /admin/emergencies (back-office-b §2): tabs Emergencies and Organizations, each with an add button; the tab in the URL. */
export function EmergenciesPage() {
  usePageTitle('Emergencies');
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'organizations' ? 'organizations' : 'emergencies';
  // Each tab's list keeps its search and page in the URL: another tab starts from its own defaults.
  const showTab = (next: string | null) => setParams(next === 'organizations' ? { tab: 'organizations' } : {});
  return (
    <Stack>
      <Title order={1}>Emergencies</Title>
      <Tabs value={tab} onChange={showTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="emergencies">Emergencies</Tabs.Tab>
          <Tabs.Tab value="organizations">Organizations</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="emergencies" pt="md">
          <EmergenciesTab />
        </Tabs.Panel>
        <Tabs.Panel value="organizations" pt="md">
          <OrganizationsTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

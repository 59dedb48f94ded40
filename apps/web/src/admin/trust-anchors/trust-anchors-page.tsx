import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/page-title.ts';
import { AnchorsSection } from './anchors-section.tsx';
import { BundlesSection } from './bundles-section.tsx';

type Tab = 'anchors' | 'bundles';

/**
 * /admin/trust-anchors (issue 12 §1): the certificate authorities this HISP trusts for Direct mail, added by hand or
 * from trust bundles. The tab is in the URL; each tab's list keeps its own state there, so a switch starts it afresh.
 */
export function TrustAnchorsPage() {
  usePageTitle('Trust anchors');
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'bundles' ? 'bundles' : 'anchors';
  const showTab = (next: string | null) => setParams(next === 'bundles' ? { tab: 'bundles' } : {}, { replace: true });
  return (
    <Stack>
      <Title order={1}>Trust anchors</Title>
      <Text size="sm" c="dimmed">
        Direct mail is trusted when its certificate chains to one of these certificate authorities, for the domain it is sent to or from.
      </Text>
      <Tabs value={tab} onChange={showTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="anchors">Anchors</Tabs.Tab>
          <Tabs.Tab value="bundles">Bundles</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="anchors" pt="md">
          <AnchorsSection />
        </Tabs.Panel>
        <Tabs.Panel value="bundles" pt="md">
          <BundlesSection />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

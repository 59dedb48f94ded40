import type { ReactNode } from 'react';
import { Alert, Button, Group, Loader, Stack, Tabs, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { WESTFAX_FEATURE, organizationInput, organizationMessages as text, type Organization, type OrganizationChoices } from '@clinicrelay/contracts/organizations.ts';
import { createOrganization, fetchChoices, fetchOrganization, findOrganizationByOrgId, fetchSpecialtyOptions, organizationKeys, updateOrganization } from '../../api/organizations.ts';
import { useFeatures } from '../../api/session.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { CarequalityTab, QhinTab } from './carequality-tab.tsx';
import { DirectTab } from './direct-tab.tsx';
import { EfaxTab, WestfaxTab } from './fax-tabs.tsx';
import { InfoTab } from './info-tab.tsx';
import { IpAddressesTab } from './ip-addresses-tab.tsx';
import { CONTACT_FIELDS, ContactFields, DetailsFields, blankOrganization, formValuesOf, inputOf, type OrganizationFormValues } from './organization-form.tsx';
import { ServiceAccountsTab } from './service-accounts-tab.tsx';
import { SettingsTab } from './settings-tab.tsx';

const LIST = '/admin/organizations';
const TABS = ['details', 'contact', 'efax', 'westfax', 'direct', 'settings', 'serviceaccount', 'carequality', 'qhin', 'info', 'ipaddresses'] as const;
type Tab = (typeof TABS)[number];
const LABELS: Record<Tab, string> = {
  details: 'Details',
  contact: 'Primary Contact',
  efax: 'eFax',
  westfax: 'WestFax',
  direct: 'Direct',
  settings: 'Settings',
  serviceaccount: 'Service Accounts',
  carequality: 'Carequality',
  qhin: 'QHIN',
  info: 'Info',
  ipaddresses: 'IP Addresses',
};

/** /admin/organizations/add and /admin/organizations/{id} (back-office-a §2): the tabbed edit page, the tab in the URL. */
export function OrganizationEditPage() {
  const { id } = useParams();
  // /admin/organizations/{Id as the list shows it}: the organization that number names.
  if (id && /^\d{1,10}$/.test(id)) return <OrganizationByOrgId orgId={id} />;
  return <OrganizationById id={id} />;
}

function OrganizationByOrgId({ orgId }: { orgId: string }) {
  const location = useLocation();
  const found = useQuery({ queryKey: [...organizationKeys.all, 'orgId', orgId], queryFn: ({ signal }) => findOrganizationByOrgId(orgId, signal) });
  if (found.error) return <Alert color="red">{errorDetails(found.error).message}</Alert>;
  if (found.data === null) return <Alert color="red">{`No organization has the Id ${orgId}.`}</Alert>;
  if (!found.data) return <Loader aria-label="Loading the organization" />;
  return <Navigate to={{ pathname: `${LIST}/${found.data.id}`, search: location.search }} state={location.state as unknown} replace />;
}

function OrganizationById({ id }: { id: string | undefined }) {
  const organization = useQuery({ queryKey: organizationKeys.one(id ?? ''), queryFn: ({ signal }) => fetchOrganization(id!, signal), enabled: !!id });
  const choices = useQuery({ queryKey: organizationKeys.choices(), queryFn: ({ signal }) => fetchChoices(signal), staleTime: 5 * 60_000 });
  const specialties = useQuery({ queryKey: organizationKeys.specialties(), queryFn: ({ signal }) => fetchSpecialtyOptions(signal), staleTime: 5 * 60_000 });
  usePageTitle(id ? (organization.data?.name ?? 'Organization') : 'Add organization');

  const error = organization.error ?? choices.error ?? specialties.error;
  if (error) return <Alert color="red">{errorDetails(error).message}</Alert>;
  if ((id && !organization.data) || !choices.data || !specialties.data) return <Loader aria-label="Loading the organization" />;
  // Keyed by the organization, so its form starts from what is stored.
  return <OrganizationEditor key={id ?? 'new'} organization={organization.data ?? null} choices={choices.data} specialties={specialties.data} />;
}

interface EditorProps {
  organization: Organization | null;
  choices: OrganizationChoices;
  specialties: { id: number; name: string }[];
}

function OrganizationEditor({ organization, choices, specialties }: EditorProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const pageState = location.state as { list?: string } | null;
  const listState = pageState?.list;
  const list = listState ? `${LIST}?${listState}` : LIST;
  const queryClient = useQueryClient();
  const features = useFeatures();
  const [params, setParams] = useSearchParams();
  const form = useForm<OrganizationFormValues>({
    initialValues: organization ? formValuesOf(organization) : blankOrganization(choices.brands[0]?.id ?? '', choices.hisps[0]?.id ?? null),
    validate: schemaResolver(organizationInput, { sync: true }),
  });

  const westfax = features.data?.enabled.includes(WESTFAX_FEATURE) ?? false;
  // §2: only details and contact until the organization has an id; westfax only with its feature toggle.
  const visible = TABS.filter((t) => (organization ? t !== 'westfax' || westfax : t === 'details' || t === 'contact'));
  const requested = params.get('tab') as Tab | null;
  const tab: Tab = requested && visible.includes(requested) ? requested : 'details';
  const showTab = (next: string | null) =>
    setParams(
      (previous) => {
        const p = new URLSearchParams(previous);
        p.set('tab', next ?? 'details');
        return p;
      },
      // Keeps the list state the page was opened with (the way back to the list).
      { replace: true, state: pageState },
    );
  const formTab = tab === 'details' || tab === 'contact';

  const save = async (values: OrganizationFormValues) => {
    try {
      const body = inputOf(values);
      await (organization ? updateOrganization(organization.id, body) : createOrganization(body));
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      notifySuccess(text.saved);
      void navigate(list);
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      for (const [field, texts] of Object.entries(modelState)) form.setFieldError(field, texts.join(' '));
      notifyError(Object.keys(modelState).length ? message : text.saveFailed);
    }
  };
  const invalid = (errors: Record<string, unknown>) => {
    notifyError(text.invalidForm);
    // Show the tab that holds the first error.
    const first = Object.keys(errors)[0];
    if (first) showTab(CONTACT_FIELDS.includes(first) ? 'contact' : 'details');
  };

  const subject = { id: organization?.id ?? '', name: organization?.name ?? '', subdomain: organization?.subdomain ?? '' };
  // What each tab shows; the tabs past details and contact exist once the organization has an id (`visible`).
  const panels: Record<Tab, ReactNode> = {
    details: <DetailsFields form={form} choices={choices} specialties={specialties} organization={organization} />,
    contact: <ContactFields form={form} />,
    efax: <EfaxTab organization={subject} />,
    westfax: <WestfaxTab organization={subject} />,
    direct: <DirectTab organization={subject} />,
    settings: organization && <SettingsTab organization={organization} />,
    serviceaccount: <ServiceAccountsTab organization={subject} />,
    carequality: <CarequalityTab organization={subject} />,
    qhin: <QhinTab organization={subject} />,
    info: organization && <InfoTab organization={organization} />,
    ipaddresses: <IpAddressesTab organization={subject} />,
  };
  return (
    <Stack>
      <Title order={1}>{organization ? organization.name : 'Add organization'}</Title>
      {/* No <form> around the tabs: the other tabs hold forms of their own. */}
      <Tabs value={tab} onChange={showTab} keepMounted={false}>
        <Tabs.List>
          {visible.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {LABELS[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {visible.map((t) => (
          <Tabs.Panel key={t} value={t} pt="md">
            {panels[t]}
          </Tabs.Panel>
        ))}
      </Tabs>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => void navigate(list)}>
          Cancel
        </Button>
        {formTab && (
          <Button loading={form.submitting} onClick={() => form.onSubmit((values) => save(values), invalid)()}>
            Save Changes
          </Button>
        )}
      </Group>
    </Stack>
  );
}

import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, TagsInput, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  FREE_PLAN_USER_LIMIT,
  RESELLER_TYPE_AFFILIATE,
  RESELLER_TYPE_LICENSING,
  formatPhone,
  organizationMessages as text,
  type Organization,
  type OrganizationChoices,
  type OrganizationInput,
} from '@clinicrelay/contracts/organizations.ts';
import { subdomainExists, subdomainIsValid } from '../../api/organizations.ts';
import { directoryStates } from '@clinicrelay/contracts/directory.ts';
import { NpiLookupModal } from './npi-lookup-modal.tsx';

const STATE_OPTIONS = directoryStates.map(([value, name]) => ({ value, label: `${name} (${value})` }));

// The details and Primary Contact tabs edit one form (one save); selects hold numbers and ids, text fields strings.
export interface OrganizationFormValues {
  name: string;
  subdomain: string;
  brandId: string;
  organizationTypeId: number | null;
  organizationSpecialtyId: number | null;
  planId: string | null;
  affiliateResellerId: string | null;
  licensingResellerId: string | null;
  tierCode: string;
  enabledFeatures: string[];
  allowedPurposeOfUseCodes: string[];
  organizationNpi: string;
  organizationEmr: string;
  hispProviderId: number | null;
  address: { street: string; unit: string; city: string; state: string; zip: string; country: string };
  primaryPhone: string;
  primaryFax: string;
  primaryContactFirstName: string;
  primaryContactLastName: string;
  primaryContactEmail: string;
  primaryContactTitle: string;
  primaryContactNpi: string;
  homeCommunityId: string;
  preferredGroupName: string;
  isActivated: boolean;
}

export type OrganizationForm = UseFormReturnType<OrganizationFormValues>;

// The fields of each tab, to open the tab that holds the first error.
export const CONTACT_FIELDS = ['primaryContactFirstName', 'primaryContactLastName', 'primaryContactEmail', 'primaryContactTitle', 'primaryContactNpi'];

export const blankOrganization = (brandId: string, hispProviderId: number | null): OrganizationFormValues => ({
  name: '',
  subdomain: '',
  brandId,
  organizationTypeId: null,
  organizationSpecialtyId: null,
  planId: null,
  affiliateResellerId: null,
  licensingResellerId: null,
  tierCode: '',
  enabledFeatures: [],
  allowedPurposeOfUseCodes: [],
  organizationNpi: '',
  organizationEmr: '',
  hispProviderId,
  address: { street: '', unit: '', city: '', state: '', zip: '', country: 'US' },
  primaryPhone: '',
  primaryFax: '',
  primaryContactFirstName: '',
  primaryContactLastName: '',
  primaryContactEmail: '',
  primaryContactTitle: '',
  primaryContactNpi: '',
  homeCommunityId: '',
  preferredGroupName: '',
  isActivated: false,
});

export const formValuesOf = (o: Organization): OrganizationFormValues => ({
  name: o.name,
  subdomain: o.subdomain,
  brandId: o.brandId ?? '',
  organizationTypeId: o.organizationTypeId,
  organizationSpecialtyId: o.organizationSpecialtyId,
  planId: o.planId,
  affiliateResellerId: o.affiliateResellerId,
  licensingResellerId: o.licensingResellerId,
  tierCode: o.tierCode ?? '',
  enabledFeatures: o.enabledFeatures,
  allowedPurposeOfUseCodes: o.allowedPurposeOfUseCodes,
  organizationNpi: o.organizationNpi ?? '',
  organizationEmr: o.organizationEmr ?? '',
  hispProviderId: o.hispProviderId,
  address: { street: o.address.street ?? '', unit: o.address.unit ?? '', city: o.address.city ?? '', state: o.address.state ?? '', zip: o.address.zip ?? '', country: o.address.country },
  primaryPhone: formatPhone(o.primaryPhone),
  primaryFax: formatPhone(o.primaryFax),
  primaryContactFirstName: o.primaryContactFirstName ?? '',
  primaryContactLastName: o.primaryContactLastName ?? '',
  primaryContactEmail: o.primaryContactEmail ?? '',
  primaryContactTitle: o.primaryContactTitle ?? '',
  primaryContactNpi: o.primaryContactNpi ?? '',
  homeCommunityId: o.homeCommunityId ?? '',
  preferredGroupName: o.preferredGroupName ?? '',
  isActivated: o.isActivated,
});

/** The body the server takes; the contracts schema validated the same values in the form. */
export const inputOf = (values: OrganizationFormValues): OrganizationInput => values as unknown as OrganizationInput;

/** The (999) 999-9999 mask, applied as the user types. */
export function maskPhone(value: string): string {
  const d = value.replace(/\D/g, '').replace(/^1(?=\d{10})/, '').slice(0, 10);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

const idOptions = (items: { id: number | string; name: string }[]) => items.map((i) => ({ value: String(i.id), label: i.name }));

interface DetailsFieldsProps {
  form: OrganizationForm;
  choices: OrganizationChoices;
  specialties: { id: number; name: string }[];
  /** The stored organization (edit) or null (add). */
  organization: Organization | null;
}

/** The details tab. */
export function DetailsFields({ form, choices, specialties, organization }: DetailsFieldsProps) {
  const [npiOpen, setNpiOpen] = useState(false);
  const users = organization?.numberOfUsers ?? 0;
  // §5: plans whose allowedUsers covers the organization's users, or unlimited.
  const plans = choices.plans.filter((p) => p.allowedUsers === -1 || p.allowedUsers >= users);
  const storedLicenser = organization?.licensingResellerId ?? null;
  const removingLicenser = storedLicenser !== null && form.values.licensingResellerId !== storedLicenser;
  const storedPlan = choices.plans.find((p) => p.id === organization?.planId);
  const resellerChanged = !!organization && (form.values.affiliateResellerId !== organization.affiliateResellerId || form.values.licensingResellerId !== organization.licensingResellerId);
  // §4: a plan set under a non-licensing reseller is billed by card: changing a reseller needs the subscription updated.
  const cardWarning = !!storedPlan && !storedPlan.isFree && storedLicenser === null && resellerChanged;
  // §3: the affiliate role takes an Affiliate reseller, the licensing role a Licensing one.
  const resellersOf = (type: number) => choices.resellers.filter((r) => (type === RESELLER_TYPE_LICENSING ? r.type === type : r.type !== RESELLER_TYPE_LICENSING)).map((r) => ({ value: r.id, label: r.name }));

  const checkSubdomain = async () => {
    const value = form.values.subdomain.trim();
    if (!value) return;
    try {
      const [exists, valid] = await Promise.all([subdomainExists(value, organization?.id), subdomainIsValid(value, organization?.id)]);
      if (exists || !valid) form.setFieldError('subdomain', text.subdomainInvalid);
    } catch {
      // The save checks again.
    }
  };

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Organization Name" required maxLength={50} {...form.getInputProps('name')} />
        <TextInput label="Subdomain" required maxLength={255} {...form.getInputProps('subdomain')} onBlur={() => void checkSubdomain()} />
        <Select label="Brand" required data={idOptions(choices.brands)} {...form.getInputProps('brandId')} />
        <Select
          label="Type"
          required
          data={idOptions(choices.types)}
          value={form.values.organizationTypeId === null ? null : String(form.values.organizationTypeId)}
          onChange={(v) => form.setFieldValue('organizationTypeId', v ? Number(v) : null)}
          error={form.errors.organizationTypeId}
        />
        <Select
          label="Specialty"
          required
          searchable
          data={idOptions(specialties)}
          value={form.values.organizationSpecialtyId === null ? null : String(form.values.organizationSpecialtyId)}
          onChange={(v) => form.setFieldValue('organizationSpecialtyId', v ? Number(v) : null)}
          error={form.errors.organizationSpecialtyId}
        />
        <Select
          label="HISP"
          required
          // Picking the chosen (default) HISP again keeps it instead of emptying a required field.
          allowDeselect={false}
          data={idOptions(choices.hisps)}
          value={form.values.hispProviderId === null ? null : String(form.values.hispProviderId)}
          onChange={(v) => form.setFieldValue('hispProviderId', v ? Number(v) : null)}
          error={form.errors.hispProviderId}
        />
        <Group align="flex-end" wrap="nowrap" gap="xs">
          <TextInput label="NPI" maxLength={15} style={{ flex: 1 }} {...form.getInputProps('organizationNpi')} />
          <Button variant="default" onClick={() => setNpiOpen(true)}>
            Look up NPI
          </Button>
        </Group>
        <TextInput label="EMR" maxLength={255} {...form.getInputProps('organizationEmr')} />
        <Select
          label="Activation Status"
          required
          allowDeselect={false}
          data={[
            { value: 'true', label: 'Activated' },
            { value: 'false', label: 'Not Activated' },
          ]}
          value={form.values.isActivated ? 'true' : 'false'}
          onChange={(v) => form.setFieldValue('isActivated', v === 'true')}
        />
        <TextInput label="Network" value={organization?.networkName ?? ''} readOnly disabled />
      </SimpleGrid>

      <Title order={4}>Address</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Street" required maxLength={255} {...form.getInputProps('address.street')} />
        <TextInput label="Unit" maxLength={255} {...form.getInputProps('address.unit')} />
        <TextInput label="City" required maxLength={255} {...form.getInputProps('address.city')} />
        <Select label="State" required searchable data={STATE_OPTIONS} {...form.getInputProps('address.state')} />
        <TextInput label="Zip" required maxLength={10} {...form.getInputProps('address.zip')} />
        <TextInput label="Country" maxLength={255} {...form.getInputProps('address.country')} />
        <TextInput
          label="Phone"
          required
          placeholder="(999) 999-9999"
          {...form.getInputProps('primaryPhone')}
          onChange={(e) => form.setFieldValue('primaryPhone', maskPhone(e.currentTarget.value))}
        />
        <TextInput
          label="Primary Fax"
          placeholder="(999) 999-9999"
          {...form.getInputProps('primaryFax')}
          onChange={(e) => form.setFieldValue('primaryFax', maskPhone(e.currentTarget.value))}
        />
      </SimpleGrid>

      <Title order={4}>Plan and reseller</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Affiliate Reseller" clearable searchable data={resellersOf(RESELLER_TYPE_AFFILIATE)} {...form.getInputProps('affiliateResellerId')} />
        <Select label="Licensing Reseller" clearable searchable data={resellersOf(RESELLER_TYPE_LICENSING)} {...form.getInputProps('licensingResellerId')} />
        <Select
          label="Plan"
          clearable
          disabled={removingLicenser}
          data={plans.map((p) => ({ value: p.id, label: `${p.name} (${p.allowedUsersDescription})` }))}
          {...form.getInputProps('planId')}
        />
        <TextInput label="Tier Code" maxLength={50} {...form.getInputProps('tierCode')} />
      </SimpleGrid>
      {removingLicenser && <Alert color={users > FREE_PLAN_USER_LIMIT ? 'red' : 'yellow'}>{users > FREE_PLAN_USER_LIMIT ? text.licenserOverFreeLimit : text.licenserRemovalWarning}</Alert>}
      {cardWarning && <Alert color="yellow">{text.cardPaymentWarning}</Alert>}

      <Title order={4}>Features</Title>
      <Checkbox.Group aria-label="Features" {...form.getInputProps('enabledFeatures')}>
        <Group>
          {choices.features.map((f) => (
            <Checkbox key={f.name} value={f.name} label={f.name} description={f.description} />
          ))}
        </Group>
      </Checkbox.Group>

      <Title order={4}>Interoperability</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Home Community Id" maxLength={255} {...form.getInputProps('homeCommunityId')} />
        <TextInput label="Preferred Group Name" maxLength={255} {...form.getInputProps('preferredGroupName')} />
        <TagsInput label="Purposes of use" maxTags={50} {...form.getInputProps('allowedPurposeOfUseCodes')} />
      </SimpleGrid>

      <NpiLookupModal
        opened={npiOpen}
        initial={form.values.organizationNpi}
        onClose={() => setNpiOpen(false)}
        onUpdate={(npi) => {
          form.setFieldValue('organizationNpi', npi);
          setNpiOpen(false);
        }}
      />
    </Stack>
  );
}

/** The contact tab (Primary Contact). */
export function ContactFields({ form }: { form: OrganizationForm }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="First Name" required maxLength={255} {...form.getInputProps('primaryContactFirstName')} />
      <TextInput label="Last Name" required maxLength={255} {...form.getInputProps('primaryContactLastName')} />
      <TextInput label="Email" type="email" required maxLength={255} {...form.getInputProps('primaryContactEmail')} />
      <TextInput label="Title" maxLength={255} {...form.getInputProps('primaryContactTitle')} />
      <TextInput label="NPI" maxLength={10} {...form.getInputProps('primaryContactNpi')} />
    </SimpleGrid>
  );
}

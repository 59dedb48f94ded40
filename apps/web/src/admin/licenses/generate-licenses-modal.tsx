import { Alert, Checkbox, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { LICENSE_TEXT_MAX, licenseIssueRequest, licenseMessages as text, type IssuedLicense, type LicenseIssueForm } from '@clinicrelay/contracts/licenses.ts';
import { fetchAllLicenseTypes, fetchAppNames, issueLicenses, licenseTypeKeys } from '../../api/licenses.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { OrganizationTypeahead } from '../../components/organization-typeahead.tsx';

const blank: LicenseIssueForm = {
  licenseType: '',
  company: '',
  name: '',
  email: '',
  internalproductname: '',
  quantity: '1',
  expiresindays: '',
  applicationname: '',
  reference: '',
  licensedPlan: 'false',
};

// The form holds what the call sends (text, as a form post does); the contract checks it as the server will.
const formSchema = licenseIssueRequest as unknown as z.ZodType<LicenseIssueForm>;

/** The generate modal (back-office-b §2 "License keys"): every field of §5, then the generated-list modal. */
export function GenerateLicensesModal({ opened, onClose, onGenerated }: { opened: boolean; onClose: () => void; onGenerated: (licenses: IssuedLicense[]) => Promise<void> }) {
  return (
    <EntityModal<LicenseIssueForm>
      opened={opened}
      onClose={onClose}
      title="Generate license keys"
      size="lg"
      entity={blank}
      schema={formSchema}
      submitLabel="Generate"
      onSubmit={async (values) => {
        const answer = await issueLicenses(values);
        await onGenerated(answer.licenses);
      }}
    >
      {(form) => <GenerateFields form={form} />}
    </EntityModal>
  );
}

function GenerateFields({ form }: { form: UseFormReturnType<LicenseIssueForm> }) {
  const types = useQuery({ queryKey: [...licenseTypeKeys, 'all'], queryFn: ({ signal }) => fetchAllLicenseTypes(signal) });
  const appNames = useQuery({ queryKey: [...licenseTypeKeys, 'appnames'], queryFn: ({ signal }) => fetchAppNames(signal) });
  const chosen = types.data?.items.find((t) => t.name === form.values.licenseType);
  const isPlan = form.values.licensedPlan === 'true';
  const invalid = Object.keys(form.errors).length > 0;
  // The type's own application names first; any other known name may still be chosen.
  const applications = [...new Set([...(chosen?.applicationNames ?? []), ...(appNames.data ?? [])])];

  const chooseType = (name: string | null) => {
    const type = types.data?.items.find((t) => t.name === name);
    form.setFieldValue('licenseType', name ?? '');
    form.setFieldValue('licensedPlan', String(type?.category === 'LicensedPlan'));
    // A licensed plan runs for its duration unless the operator typed another.
    if (type?.subscriptionDurationDays && !form.values.expiresindays) form.setFieldValue('expiresindays', String(type.subscriptionDurationDays));
  };

  return (
    <>
      {invalid && <Alert color="red">{text.invalidFields}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="License type"
          required
          searchable
          data={(types.data?.items ?? []).map((t) => ({ value: t.name, label: t.name }))}
          value={form.values.licenseType || null}
          onChange={chooseType}
          error={form.errors.licenseType}
          data-autofocus
        />
        <OrganizationTypeahead value={form.values.company} onChange={(id) => form.setFieldValue('company', id)} error={form.errors.company} />
        <TextInput label="Name" required maxLength={LICENSE_TEXT_MAX} {...form.getInputProps('name')} />
        <TextInput label="Email" type="email" required maxLength={254} {...form.getInputProps('email')} />
        <TextInput label="Product name" required maxLength={LICENSE_TEXT_MAX} {...form.getInputProps('internalproductname')} />
        <TextInput label="Reference" required maxLength={LICENSE_TEXT_MAX} {...form.getInputProps('reference')} />
        <TextInput label="Quantity" required inputMode="numeric" {...form.getInputProps('quantity')} />
        <TextInput label="Expires in days" required inputMode="numeric" {...form.getInputProps('expiresindays')} />
        <Select
          label="Application name"
          required={!isPlan}
          searchable
          clearable
          data={applications}
          value={form.values.applicationname || null}
          onChange={(value) => form.setFieldValue('applicationname', value ?? '')}
          error={form.errors.applicationname}
        />
      </SimpleGrid>
      {/* Follows the license type's category; the server checks that the two agree. */}
      <Checkbox label="Licensed plan" checked={isPlan} readOnly disabled description={chosen ? `Category: ${chosen.category}` : 'Set by the license type'} />
    </>
  );
}

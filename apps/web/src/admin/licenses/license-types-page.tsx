import { Alert, NumberInput, Select, TagsInput, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  CONNECTOR_NAMES_SHOWN,
  LICENSE_CATEGORIES,
  LICENSE_DURATION_MAX,
  LICENSE_TEXT_MAX,
  LICENSE_TYPES_SEARCH_DEBOUNCE_MS,
  licenseMessages as text,
  licenseTypeInput,
  type LicenseCategory,
  type LicenseType,
} from '@clinicrelay/contracts/licenses.ts';
import { createLicenseType, deleteLicenseType, fetchAppNames, fetchLicenseTypes, licenseTypeExists, licenseTypeKeys, updateLicenseType } from '../../api/licenses.ts';
import { fetchChoices, organizationKeys } from '../../api/organizations.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { MultiValueCell } from '../../components/multi-value-cell.tsx';
import { AdminListArea } from '../admin-list-area.tsx';

type Values = z.output<typeof licenseTypeInput>;

const CATEGORY_LABELS: Record<LicenseCategory, string> = { Device: 'Device', App: 'App', LicensedPlan: 'Licensed plan', LicensedConnector: 'Licensed connector' };
const categoryOptions = LICENSE_CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }));

const columns: ListColumn<LicenseType>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'description', header: 'Description', sortable: true },
  { key: 'category', header: 'Category', sortable: true, render: (row) => CATEGORY_LABELS[row.category] },
  { key: 'subscription', header: 'Subscription', render: (row) => row.subscriptionName ?? row.subscription ?? '' },
  { key: 'subscriptionDurationDays', header: 'Duration', sortable: true, render: (row) => (row.subscriptionDurationDays === null ? '' : `${row.subscriptionDurationDays} days`) },
  { key: 'apps', header: 'Apps', width: 150, render: (row) => <MultiValueCell values={row.apps} /> },
  // §9: the connector names list shows 5 values.
  { key: 'connectorNames', header: 'Connector names', width: 240, render: (row) => <MultiValueCell values={row.connectorNames} visible={CONNECTOR_NAMES_SHOWN} /> },
];

const blank: Values = {
  name: '',
  description: '',
  // No category until one is chosen ('Please select a category').
  category: null as unknown as LicenseCategory,
  subscription: null,
  subscriptionDurationDays: '',
  applicationNames: [],
  connectorNames: [],
};

/** /admin/licensetypes: the license types keys are issued under (back-office-b §2 "License types"). */
export function LicenseTypesPage() {
  return (
    <AdminListArea<LicenseType, Values>
      title="License types"
      entityName="license type"
      queryKey={licenseTypeKeys}
      columns={columns}
      fetchPage={fetchLicenseTypes}
      searchDebounceMs={LICENSE_TYPES_SEARCH_DEBOUNCE_MS}
      form={{
        schema: licenseTypeInput,
        blank,
        valuesOf: (row) => ({
          name: row.name,
          description: row.description,
          category: row.category,
          subscription: row.subscription,
          subscriptionDurationDays: row.subscriptionDurationDays ?? '',
          applicationNames: row.applicationNames,
          connectorNames: row.connectorNames,
        }),
        fields: (form, row) => <LicenseTypeFields form={form} id={row?.id} />,
      }}
      create={createLicenseType}
      update={(row, values) => updateLicenseType(row.id, values)}
      remove={(row) => deleteLicenseType(row.id)}
      rowName={(row) => row.name}
      messages={{ saved: text.typeSaved, deleted: text.typeDeleted }}
      actionsWidth={110}
    />
  );
}

function LicenseTypeFields({ form, id }: { form: UseFormReturnType<Values>; id: string | undefined }) {
  const plans = useQuery({ queryKey: organizationKeys.choices(), queryFn: ({ signal }) => fetchChoices(signal), select: (c) => c.plans.map((p) => ({ value: p.id, label: p.name })) });
  const appNames = useQuery({ queryKey: [...licenseTypeKeys, 'appnames'], queryFn: ({ signal }) => fetchAppNames(signal) });
  const isPlan = form.values.category === 'LicensedPlan';
  const invalid = Object.keys(form.errors).length > 0;
  // §5 unique: said as soon as the name is left, through GET /exists (the save says it again if two race).
  const checkName = async () => {
    const name = form.values.name.trim();
    if (name && !form.errors.name && (await licenseTypeExists(name, id))) form.setFieldError('name', text.typeExists);
  };
  return (
    <>
      {invalid && <Alert color="red">{text.invalidFields}</Alert>}
      <TextInput label="Name" required maxLength={LICENSE_TEXT_MAX} data-autofocus {...form.getInputProps('name')} onBlur={() => void checkName()} />
      <Textarea label="Description" required maxLength={LICENSE_TEXT_MAX} autosize minRows={2} {...form.getInputProps('description')} />
      <Select
        label="Category"
        required
        placeholder="Select a category"
        data={categoryOptions}
        allowDeselect={false}
        {...form.getInputProps('category')}
        onChange={(value) => {
          form.setFieldValue('category', value as LicenseCategory);
          // What a licensed plan needs is no longer asked of another category.
          for (const field of ['category', 'subscription', 'subscriptionDurationDays'] as const) form.clearFieldError(field);
        }}
      />
      <Select label="Subscription" required={isPlan} placeholder="Select a plan" data={plans.data ?? []} clearable {...form.getInputProps('subscription')} />
      <NumberInput label="Duration (days)" required={isPlan} min={1} max={LICENSE_DURATION_MAX} allowDecimal={false} allowNegative={false} {...form.getInputProps('subscriptionDurationDays')} />
      <TagsInput label="Application names" description="Press Enter after each name" data={appNames.data ?? []} clearable {...form.getInputProps('applicationNames')} />
      <TagsInput label="Connector names" description="Press Enter after each name" clearable {...form.getInputProps('connectorNames')} />
    </>
  );
}

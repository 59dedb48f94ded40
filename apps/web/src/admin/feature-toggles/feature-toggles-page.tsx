import { Alert, Checkbox, Stack, Switch, TextInput } from '@mantine/core';
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { FEATURE_NAME_MAX, featureInput, featureToggleMessages, type Feature } from '@clinicrelay/contracts/feature-toggles.ts';
import type { z } from 'zod';
import { createFeatureToggle, featureToggleKeys, fetchFeatureToggles, updateFeatureToggle } from '../../api/feature-toggles.ts';
import { sessionKeys } from '../../api/session.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { AdminListArea } from '../admin-list-area.tsx';

type Values = z.output<typeof featureInput>;
type Toggle = 'enabled' | 'isOrganizationFeature';

const valuesOf = (row: Feature): Values => ({ name: row.name, enabled: row.enabled, isOrganizationFeature: row.isOrganizationFeature });

// A toggle in the row saves at once, as the edit modal would with that one change.
function RowToggle({ row, field, label }: { row: Feature; field: Toggle; label: string }) {
  const queryClient = useQueryClient();
  // One save of a row at a time, each after the list shows the last: a PUT carries the row's other toggle as shown.
  const mutationKey = ['feature-toggle', row.id];
  const rowSaving = useIsMutating({ mutationKey }) > 0;
  const save = useMutation({
    mutationKey,
    mutationFn: (on: boolean) => updateFeatureToggle(row.id, { ...valuesOf(row), [field]: on }),
    onSuccess: async () => {
      notifySuccess(featureToggleMessages.saved);
      // The operator's own screens follow the change too (the WestFax tab, the API capture column).
      await Promise.all([queryClient.invalidateQueries({ queryKey: featureToggleKeys }), queryClient.invalidateQueries({ queryKey: sessionKeys.features() })]);
    },
    onError: (error) => notifyError(errorDetails(error).message),
  });
  const checked = save.isPending && save.variables !== undefined ? save.variables : row[field];
  return <Switch aria-label={`${label}: ${row.name}`} checked={checked} disabled={rowSaving} onChange={(event) => save.mutate(event.currentTarget.checked)} />;
}

const columns: ListColumn<Feature>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'enabled', header: 'Enabled', width: 100, render: (row) => <RowToggle row={row} field="enabled" label="Enabled" /> },
  { key: 'isOrganizationFeature', header: 'Organization feature', width: 120, render: (row) => <RowToggle row={row} field="isOrganizationFeature" label="Organization feature" /> },
  { key: 'createDate', header: 'Created date', width: 120, render: (row) => formatDate(row.createDate) },
  { key: 'createdBy', header: 'Created by', width: 190, visibleFrom: 'lg', render: (row) => row.createdBy ?? '' },
  { key: 'modifiedBy', header: 'Modified by', width: 190, visibleFrom: 'lg', render: (row) => row.modifiedBy ?? '' },
  { key: 'modifiedDate', header: 'Modified date', width: 120, render: (row) => formatDate(row.modifiedDate) },
];

/** /admin/featureToggle: back-office-b §2 "Feature toggles" (list with toggles and an edit modal). */
export function FeatureTogglesPage() {
  const queryClient = useQueryClient();
  const refreshOwnFeatures = () => queryClient.invalidateQueries({ queryKey: sessionKeys.features() });
  return (
    <AdminListArea<Feature, Values>
      title="Feature toggles"
      entityName="feature"
      queryKey={featureToggleKeys}
      columns={columns}
      fetchPage={fetchFeatureToggles}
      form={{
        schema: featureInput,
        blank: { name: '', enabled: false, isOrganizationFeature: false },
        valuesOf,
        fields: (form) => (
          <Stack gap="sm">
            {Object.keys(form.errors).length > 0 && (
              <Alert color="red" role="alert">
                {featureToggleMessages.invalidFields}
              </Alert>
            )}
            <TextInput label="Name" required maxLength={FEATURE_NAME_MAX} data-autofocus {...form.getInputProps('name')} />
            <Checkbox label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
            <Checkbox
              label="Organization feature"
              description="An organization's own setting (its Features section) wins over Enabled for it."
              {...form.getInputProps('isOrganizationFeature', { type: 'checkbox' })}
            />
          </Stack>
        ),
      }}
      create={async (values) => {
        await createFeatureToggle(values);
        await refreshOwnFeatures();
      }}
      update={async (row, values) => {
        await updateFeatureToggle(row.id, values);
        await refreshOwnFeatures();
      }}
      rowName={(row) => row.name}
      messages={{ saved: featureToggleMessages.saved, deleted: '' }}
    />
  );
}

import { Button, Checkbox, Group, Select, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { exportModes, exportOptions } from '@clinicrelay/contracts/organization-settings.ts';
import { API_CAPTURE_FEATURE, organizationAdminSettings, organizationMessages as text, type Organization, type OrganizationAdminSettings } from '@clinicrelay/contracts/organizations.ts';
import { organizationKeys, setApiCapture, updateOrganization } from '../../api/organizations.ts';
import { useFeatures } from '../../api/session.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { formValuesOf, inputOf } from './organization-form.tsx';

// The settings tab: interoperability (end-user §3), fax suppress settings, plan restriction and API capture.
// Saved with the organization's stored details, so this tab never saves half-edited details of another tab.
export function SettingsTab({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const features = useFeatures();
  const form = useForm<OrganizationAdminSettings>({ initialValues: organization.settings, validate: schemaResolver(organizationAdminSettings, { sync: true }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: organizationKeys.all });

  const save = async (settings: OrganizationAdminSettings) => {
    try {
      await updateOrganization(organization.id, { ...inputOf(formValuesOf(organization)), settings });
      notifySuccess(text.saved);
      form.resetDirty(settings);
      await refresh();
    } catch {
      notifyError(text.saveFailed);
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => save(values))} noValidate>
      <Stack>
        <Title order={4}>Interoperability</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select label="Export Mode" allowDeselect={false} data={[...exportModes]} {...form.getInputProps('exportMode')} />
          <Select label="Export Option" clearable data={[...exportOptions].map((o) => ({ value: o, label: o === 'PatientFolder' ? 'Folder per patient' : 'Single folder' }))} {...form.getInputProps('exportOption')} />
          <TextInput
            label="Export Directory Type"
            maxLength={100}
            value={form.values.exportDirectoryType ?? ''}
            onChange={(e) => form.setFieldValue('exportDirectoryType', e.currentTarget.value || null)}
            error={form.errors.exportDirectoryType}
          />
        </SimpleGrid>
        <Checkbox label="Export a folder per visit" {...form.getInputProps('exportVisitDirectory', { type: 'checkbox' })} />
        <Checkbox label="Export non-patient documents" {...form.getInputProps('nonPatientExport', { type: 'checkbox' })} />
        <Checkbox label="Delivery summary can be downloaded" {...form.getInputProps('deliverySummaryEnableDownload', { type: 'checkbox' })} />
        <Title order={4}>Fax</Title>
        <Checkbox label="Suppress the cover page" {...form.getInputProps('suppressCoverPage', { type: 'checkbox' })} />
        <Checkbox label="Suppress the message body" {...form.getInputProps('suppressMessageBody', { type: 'checkbox' })} />
        <Checkbox label="Suppress attachment descriptions" {...form.getInputProps('suppressAttachmentDescriptions', { type: 'checkbox' })} />
        <Title order={4}>Plan</Title>
        <Checkbox label="Restrict the organization to its plan" {...form.getInputProps('planRestricted', { type: 'checkbox' })} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
            Save Settings
          </Button>
        </Group>
        {features.data?.enabled.includes(API_CAPTURE_FEATURE) && (
          <>
            <Title order={4}>API</Title>
            <Switch
              label="Capture API requests"
              checked={organization.apiCapture}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                void setApiCapture(organization.id, on).then(
                  () => notifySuccess(text.apiUpdated),
                  () => notifyError(text.apiFailed),
                ).finally(() => void refresh());
              }}
            />
          </>
        )}
      </Stack>
    </form>
  );
}

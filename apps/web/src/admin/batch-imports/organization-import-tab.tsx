import { useState } from 'react';
import { Alert, Button, FileInput, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { batchImportMessages as text, IMPORT_TEMPLATE_FILE_NAME, importColumns, importTemplateCsv, MAX_IMPORT_FILE_BYTES } from '@clinicrelay/contracts/batch-imports.ts';
import { RESELLER_TYPE_AFFILIATE, RESELLER_TYPE_LICENSING } from '@clinicrelay/contracts/organizations.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { batchImportKeys, fetchDirectMessagingProviders, fetchOrganizationTypes, importOrganizations } from '../../api/batch-imports.ts';
import { fetchChoices, fetchSpecialtyOptions, organizationKeys } from '../../api/organizations.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { saveFile } from '../../components/save-file.ts';


const isImportFile = (file: File) => /\.(csv|xlsx)$/i.test(file.name);
const required = (message: string) =>
  z
    .string()
    .nullable()
    .refine((v) => !!v, message);

// back-office-b §5: file, plan, HISP, brand, type, specialty required; affiliate and licenser optional.
const formSchema = z.object({
  file: z
    .instanceof(File)
    .nullable()
    .superRefine((file, context) => {
      if (!file) context.addIssue({ code: 'custom', message: text.fileRequired });
      else if (!isImportFile(file)) context.addIssue({ code: 'custom', message: text.fileType });
      else if (file.size > MAX_IMPORT_FILE_BYTES) context.addIssue({ code: 'custom', message: text.fileTooLarge });
    }),
  planId: required(text.planRequired),
  hispProviderId: required(text.hispRequired),
  brandId: required(text.brandRequired),
  type: required(text.typeRequired),
  specialty: required(text.specialtyRequired),
  affiliateResellerId: z.string().nullable(),
  licensingResellerId: z.string().nullable(),
});
type Values = z.output<typeof formSchema>;
const blank: Values = { file: null, planId: null, hispProviderId: null, brandId: null, type: null, specialty: null, affiliateResellerId: null, licensingResellerId: null };

/** The Organization import tab: the file and the choices every row takes. */
export function OrganizationImportTab({ onImported }: { onImported: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ initialValues: blank, validate: schemaResolver(formSchema, { sync: true }) });
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const choices = useQuery({ queryKey: organizationKeys.choices(), queryFn: ({ signal }) => fetchChoices(signal), staleTime: 5 * 60_000 });
  const specialties = useQuery({ queryKey: organizationKeys.specialties(), queryFn: ({ signal }) => fetchSpecialtyOptions(signal), staleTime: 5 * 60_000 });
  const types = useQuery({ queryKey: batchImportKeys.types(), queryFn: ({ signal }) => fetchOrganizationTypes(signal), staleTime: 5 * 60_000 });
  const hisps = useQuery({ queryKey: batchImportKeys.hisps(), queryFn: ({ signal }) => fetchDirectMessagingProviders(signal), staleTime: 5 * 60_000 });

  const plans = choices.data?.plans ?? [];
  const plan = plans.find((p) => p.id === form.values.planId);
  const resellersOf = (type: number) => (choices.data?.resellers ?? []).filter((r) => r.type === type).map((r) => ({ value: r.id, label: r.name }));

  const submit = form.onSubmit(
    async (values) => {
      setInvalid(false);
      setFailure(null);
      setBusy(true);
      try {
        const chosen = plans.find((p) => p.id === values.planId);
        await importOrganizations(
          {
            hispProviderId: Number(values.hispProviderId),
            brandId: values.brandId!,
            // §3: null is the Free plan.
            planId: chosen?.isFree ? null : values.planId,
            resellerId: null,
            affiliateResellerId: values.affiliateResellerId,
            licensingResellerId: values.licensingResellerId,
            specialty: Number(values.specialty),
            type: Number(values.type),
          },
          values.file!,
        );
        notifySuccess(text.imported);
        form.reset();
        await queryClient.invalidateQueries({ queryKey: batchImportKeys.all });
        onImported();
      } catch (error) {
        const details = errorDetails(error);
        setFailure(details.message);
        const fieldErrors = Object.fromEntries(Object.entries(details.modelState ?? {}).map(([field, texts]) => [field, texts[0]]));
        form.setErrors(fieldErrors);
        notifyError(text.importFailed);
      } finally {
        setBusy(false);
      }
    },
    () => setInvalid(true),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Organization import">
      <Stack gap="md" maw={880}>
        <Title order={2}>Organization import</Title>
        {invalid && Object.keys(form.errors).length > 0 && <Alert color="red">{messages.invalidFields}</Alert>}
        {failure && !invalid && <Alert color="red">{failure}</Alert>}
        <Text size="sm" c="dimmed">
          Each row of the file becomes an organization, and its primary contact its Administrator (an account-creation email is sent). Columns (header names, any case):{' '}
          {importColumns.map((c) => `${c.header}${c.required ? ' *' : ''}`).join(', ')}.
        </Text>
        <Group align="flex-start">
          <FileInput
            label="File"
            required
            placeholder="Choose a .CSV or .XLSX file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear file' }}
            style={{ flex: 1 }}
            {...form.getInputProps('file')}
          />
          {/* Level with the file box, below its label, whether or not the field shows an error. */}
          <Button variant="default" mt={25} onClick={() => saveFile(new Blob([importTemplateCsv()], { type: 'text/csv' }), IMPORT_TEMPLATE_FILE_NAME)}>
            Download template
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Plan"
            required
            placeholder="Choose a plan"
            data={plans.map((p) => ({ value: p.id, label: p.name }))}
            description={plan ? `Allowed users: ${plan.allowedUsersDescription}` : 'The plan every imported organization starts on.'}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...form.getInputProps('planId')}
          />
          <Select label="HISP" required placeholder="Choose a HISP" data={(hisps.data?.items ?? []).map((h) => ({ value: String(h.id), label: h.name }))} {...form.getInputProps('hispProviderId')} />
          <Select label="Brand" required placeholder="Choose a brand" data={(choices.data?.brands ?? []).map((b) => ({ value: b.id, label: b.name }))} {...form.getInputProps('brandId')} />
          <Select label="Type" required placeholder="Choose a type" data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))} {...form.getInputProps('type')} />
          <Select label="Specialty" required searchable placeholder="Choose a specialty" data={(specialties.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))} {...form.getInputProps('specialty')} />
          <Select label="Affiliate Reseller" clearable searchable placeholder="None" data={resellersOf(RESELLER_TYPE_AFFILIATE)} {...form.getInputProps('affiliateResellerId')} />
          <Select label="Licensing Reseller" clearable searchable placeholder="None" data={resellersOf(RESELLER_TYPE_LICENSING)} {...form.getInputProps('licensingResellerId')} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            Import
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

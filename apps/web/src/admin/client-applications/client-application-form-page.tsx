import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { clientApplicationInput, clientApplicationMessages as text, CLIENT_APPLICATION_NAME_MAX, CLIENT_APPLICATION_TEXT_MAX, type ClientApplication, type ClientApplicationInput } from '@clinicrelay/contracts/client-applications.ts';
import { reportMessages } from '@clinicrelay/contracts/reports.ts';
import {
  clientApplicationKeys,
  createClientApplication,
  fetchClientApplication,
  resetClientCredentials,
  searchOrganizations,
  updateClientApplication,
} from '../../api/client-applications.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { CenteredLoader } from '../../app/centered-loader.tsx';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';

const blank: ClientApplicationInput = { name: '', logoUrl: '', redirectURI: '', applicationUrl: '', organizationId: null };

/** /admin/clientapplications/add and /edit/:id: the client application form (back-office-b, issue 29 §1). */
export function ClientApplicationFormPage() {
  const { id } = useParams();
  const existing = useQuery({ queryKey: [...clientApplicationKeys, 'one', id], queryFn: ({ signal }) => fetchClientApplication(id!, signal), enabled: !!id });
  usePageTitle(id ? 'Edit client application' : 'Add client application');
  if (id && !existing.data) {
    if (existing.error) return <Alert color="red">{errorDetails(existing.error).message}</Alert>;
    return <CenteredLoader />;
  }
  return <ClientApplicationForm key={id ?? 'new'} application={existing.data ?? null} />;
}

function ClientApplicationForm({ application }: { application: ClientApplication | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The secret of the last save or reset: shown on this page only, never fetched again.
  const [credentials, setCredentials] = useState<{ clientId: string; secret: string } | null>(null);
  const [saved, setSaved] = useState<ClientApplication | null>(application);
  const [error, setError] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  const [orgSearch, setOrgSearch] = useState('');
  const form = useForm<ClientApplicationInput>({
    initialValues: application
      ? { name: application.name, logoUrl: application.logoUrl, redirectURI: application.redirectURI, applicationUrl: application.applicationUrl, organizationId: application.organizationId }
      : blank,
    validate: schemaResolver(clientApplicationInput, { sync: true }),
  });
  const organizations = useQuery({ queryKey: ['organizations', 'choices', 'clientapplications', orgSearch], queryFn: ({ signal }) => searchOrganizations(orgSearch, signal) });
  const orgOptions = [
    ...(saved?.organizationId && saved.organizationName ? [{ value: saved.organizationId, label: saved.organizationName }] : []),
    ...(organizations.data ?? []).filter((o) => o.id !== saved?.organizationId).map((o) => ({ value: o.id, label: o.name })),
  ];

  const save = async (values: ClientApplicationInput) => {
    setError(null);
    try {
      const result = saved ? await updateClientApplication(saved.id, values) : await createClientApplication(values);
      await queryClient.invalidateQueries({ queryKey: clientApplicationKeys });
      notifySuccess(text.saved);
      setSaved(result);
      if (result.secret) setCredentials({ clientId: result.clientId, secret: result.secret });
      // The page stays where it is after the first save: the secret lives in this page's state only.
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      for (const [field, texts] of Object.entries(modelState)) if (field in form.values) form.setFieldError(field, texts.join(' '));
      setError((failure as { exceptionMessage?: string }).exceptionMessage ?? message);
    }
  };

  return (
    <Stack maw={720}>
      <Title order={1}>{saved ? 'Edit client application' : 'Add client application'}</Title>
      {error && <Alert color="red">{error}</Alert>}
      {credentials && <CredentialsPanel {...credentials} />}
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={form.onSubmit(save, () => setError(reportMessages.invalidFields))} noValidate>
          <Stack>
            <TextInput label="Name" required maxLength={CLIENT_APPLICATION_NAME_MAX} data-autofocus {...form.getInputProps('name')} />
            <TextInput label="Logo URL" required maxLength={CLIENT_APPLICATION_TEXT_MAX} placeholder="https://" {...form.getInputProps('logoUrl')} />
            <TextInput label="Redirect URL" required maxLength={CLIENT_APPLICATION_TEXT_MAX} placeholder="https://" {...form.getInputProps('redirectURI')} />
            <TextInput label="Application URL" required maxLength={CLIENT_APPLICATION_TEXT_MAX} placeholder="https://" {...form.getInputProps('applicationUrl')} />
            <Select
              label="Organization (client credentials)"
              description="The organization a system integration acts for with the client-credentials grant. Leave empty for user sign-in only."
              data={orgOptions}
              searchable
              clearable
              onSearchChange={setOrgSearch}
              nothingFoundMessage="No organizations found"
              {...form.getInputProps('organizationId')}
            />
            {saved && <TextInput label="Client ID" value={saved.clientId} readOnly />}
            <Group justify="space-between">
              <Group>
                {saved && (
                  <Button variant="light" color="orange" onClick={() => setResetting(true)}>
                    Reset credentials
                  </Button>
                )}
              </Group>
              <Group>
                <Button variant="default" onClick={() => void navigate('/admin/clientapplications')}>
                  {credentials || saved ? 'Back to list' : 'Cancel'}
                </Button>
                <Button type="submit" loading={form.submitting}>
                  Save
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      </Paper>
      {saved && (
        <ConfirmModal
          opened={resetting}
          onClose={() => setResetting(false)}
          title="Reset client credentials"
          message={text.resetConfirm}
          confirmLabel="Reset credentials"
          danger
          successMessage={text.credentialsReset}
          onConfirm={async () => {
            const result = await resetClientCredentials(saved.id);
            setCredentials({ clientId: result.clientId, secret: result.secret ?? '' });
          }}
        />
      )}
    </Stack>
  );
}

function CredentialsPanel({ clientId, secret }: { clientId: string; secret: string }) {
  return (
    <Alert color="yellow" title="Client credentials">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {text.secretShownOnce}
        </Text>
        <CredentialRow label="Client ID" value={clientId} />
        <CredentialRow label="Client secret" value={secret} />
      </Stack>
    </Alert>
  );
}

function CredentialRow({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" w={110}>
        {label}
      </Text>
      <Code style={{ wordBreak: 'break-all' }} aria-label={label}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
            {copied ? 'Copied!' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

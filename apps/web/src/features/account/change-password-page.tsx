import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { changePasswordRequest, type ChangePasswordRequest } from '@clinicrelay/contracts/passwords.ts';
import { useChangePassword } from '../../api/passwords.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';
import { NewPasswordFields } from '../../components/password-field.tsx';

// Mantine's default toggle label contains "password", which makes the fields ambiguous for label lookups.
const TOGGLE = { 'aria-label': 'Show or hide characters' };
const BLANK: ChangePasswordRequest = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * /settings/password (issue 14 §5; the path is not in the spec): every signed-in user changes their own password,
 * reached from the user menu. Other sessions of the user end; this one stays.
 */
export function ChangePasswordPage() {
  usePageTitle('Change password');
  const { profile } = useSession();
  const change = useChangePassword();
  const form = useForm<ChangePasswordRequest>({ initialValues: BLANK, validate: schemaResolver(changePasswordRequest, { sync: true }) });

  const submit = (values: ChangePasswordRequest) =>
    change.mutate(values, {
      onSuccess: ({ message }) => {
        notifySuccess(message);
        form.setValues(BLANK);
        form.resetDirty();
      },
      onError: (error) => form.setErrors(Object.fromEntries(Object.entries(errorDetails(error).modelState).map(([field, texts]) => [field, texts[0]]))),
    });
  const failure = change.error ? errorDetails(change.error) : null;
  const topMessage = failure && !Object.keys(failure.modelState).some((f) => f in BLANK) ? failure.message : null;

  return (
    <Stack gap="md" maw={560}>
      <Title order={1}>Change password</Title>
      <Paper withBorder p="md" component="section" aria-label="Change password">
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              Use 8 to 128 characters; spaces and any letters work. A common password or one containing your user name is refused. Your other sessions are signed out.
            </Text>
            {topMessage && <Alert color="red">{topMessage}</Alert>}
            <PasswordInput label="Current password" required autoComplete="current-password" visibilityToggleButtonProps={TOGGLE} {...form.getInputProps('currentPassword')} />
            <NewPasswordFields form={form} paths={['newPassword', 'confirmPassword']} label="New password" confirmLabel="Confirm new password" userName={profile.userName} />
            <Group justify="flex-end">
              <Button type="submit" loading={change.isPending}>
                Change password
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

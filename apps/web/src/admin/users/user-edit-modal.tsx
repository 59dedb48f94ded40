import { Alert, Button, Checkbox, Group, Loader, Modal, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminUserForm, adminUserMessages as text, type AdminUser, type AdminUserFormValues } from '@clinicrelay/contracts/admin-users.ts';
import { organizationRoles, systemRoles, type SystemRole } from '@clinicrelay/contracts/roles.ts';
import { adminUserKeys, createAdminUser, createSysAdmin, disableTwoFactor, fetchAdminUser, fetchJobFunctions, updateAdminUser } from '../../api/admin-users.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';
import { OrganizationTypeahead } from '../../components/organization-typeahead.tsx';

// back-office-a §2 "Users" edit modal and §5 "User edit": one form for adding (organization or system user) and
// editing; the title says which, with the user's name when editing.

const BLANK: AdminUserFormValues = {
  roleType: 'Organization',
  userName: '',
  firstName: '',
  lastName: '',
  email: '',
  roleName: '',
  organizationId: '',
  jobFunctionId: null,
  emailCreatePassword: false,
  password: '',
  confirmPassword: '',
  userPreferences: { emailNewMessages: true, emailUnprocessedMessages: false, emailSystemNotifications: true, emailUnassignedMessages: false, emailFailedMessagesDigest: false },
};

const valuesOf = (user: AdminUser): AdminUserFormValues & { id: string } => ({
  ...BLANK,
  id: user.id,
  roleType: user.roleType,
  userName: user.userName,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  roleName: user.roleName ?? '',
  userPreferences: user.userPreferences,
});

const NOTIFICATIONS: [keyof AdminUserFormValues['userPreferences'], string][] = [
  ['emailNewMessages', 'New messages'],
  ['emailUnprocessedMessages', 'Unprocessed messages'],
  ['emailSystemNotifications', 'System notifications'],
  ['emailUnassignedMessages', 'Unassigned messages'],
  ['emailFailedMessagesDigest', 'Failed message digest'],
];

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

interface UserEditModalProps {
  /** null: closed; { id: null }: adding; { id }: editing that user. */
  editing: { id: string | null } | null;
  onClose: () => void;
}

export function UserEditModal({ editing, onClose }: UserEditModalProps) {
  const id = editing?.id ?? null;
  const user = useQuery({ queryKey: adminUserKeys.one(id ?? ''), queryFn: ({ signal }) => fetchAdminUser(id!, signal), enabled: id !== null });
  if (editing === null) return null;
  if (id !== null && !user.data) {
    return (
      <Modal opened onClose={onClose} title="Edit User">
        {user.error ? <Alert color="red">{errorDetails(user.error).message}</Alert> : <Loader aria-label="Loading the user" />}
      </Modal>
    );
  }
  return <UserForm user={user.data && id !== null ? user.data : null} onClose={onClose} />;
}

function UserForm({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const jobFunctions = useQuery({ queryKey: adminUserKeys.jobFunctions, queryFn: ({ signal }) => fetchJobFunctions(signal), staleTime: Infinity });
  const save = async (values: AdminUserFormValues) => {
    const names = { userName: values.userName, firstName: values.firstName, lastName: values.lastName };
    if (user) {
      await updateAdminUser(user.id, {
        ...names,
        email: values.email,
        ...(user.isSysAdmin ? { roleName: values.roleName as SystemRole } : {}),
        userPreferences: values.userPreferences,
      });
    } else if (values.roleType === 'System') {
      await createSysAdmin({ ...names, roleName: values.roleName as SystemRole });
    } else {
      await createAdminUser({
        userDetails: { ...names, email: values.email, roleName: values.roleName as 'Administrator' | 'User', primaryJobFunction: { id: values.jobFunctionId ?? 0 } },
        ...(values.emailCreatePassword ? {} : { password: values.password, confirmPassword: values.confirmPassword }),
        organizationId: values.organizationId,
        emailCreatePassword: values.emailCreatePassword,
      });
    }
    await queryClient.invalidateQueries({ queryKey: adminUserKeys.all });
  };

  return (
    <EntityModal<AdminUserFormValues>
      opened
      onClose={onClose}
      title={user ? `Edit User ${user.firstName} ${user.lastName}`.trim() : 'Add User'}
      size="lg"
      entity={user ? valuesOf(user) : BLANK}
      schema={adminUserForm}
      successMessage={text.saved}
      onSubmit={save}
    >
      {(form) => <UserFields form={form} user={user} jobFunctions={jobFunctions.data ?? []} />}
    </EntityModal>
  );
}

function UserFields({ form, user, jobFunctions }: { form: UseFormReturnType<AdminUserFormValues>; user: AdminUser | null; jobFunctions: { id: number; name: string }[] }) {
  const creating = user === null;
  const system = form.values.roleType === 'System';
  const roles: readonly string[] = system ? systemRoles : organizationRoles;
  return (
    <Stack>
      {creating ? (
        <SegmentedControl
          aria-label="Type"
          data={[
            { value: 'Organization', label: 'Organization user' },
            { value: 'System', label: 'System user' },
          ]}
          value={form.values.roleType}
          onChange={(value) => {
            form.setFieldValue('roleType', value);
            form.setFieldValue('roleName', '');
          }}
        />
      ) : (
        <ReadOnlyField label="Type" value={user.roleType === 'System' ? 'System user' : 'Organization user'} />
      )}
      <TextInput
        label="User name (email)"
        required
        maxLength={256}
        data-autofocus
        {...form.getInputProps('userName')}
        onBlur={(event: React.FocusEvent<HTMLInputElement>) => {
          // §5: the email is filled from the user name when it is empty.
          if (!form.values.email.trim()) form.setFieldValue('email', event.currentTarget.value.trim());
          // Not when the focus goes to Save: the message would push Save down under the pointer, the click would miss
          // it and only this one error would show (issue 26); Save checks every field.
          if ((event.relatedTarget as HTMLElement | null)?.getAttribute('type') !== 'submit') form.validateField('userName');
        }}
      />
      <SimpleGrid cols={2}>
        <TextInput label="First name" required maxLength={255} {...form.getInputProps('firstName')} />
        <TextInput label="Last name" required maxLength={255} {...form.getInputProps('lastName')} />
      </SimpleGrid>
      {creating && !system && (
        <OrganizationTypeahead value={form.values.organizationId} onChange={(id) => form.setFieldValue('organizationId', id)} error={form.errors.organizationId} />
      )}
      {(creating || system) && <Select label="Role" required allowDeselect={false} data={[...roles]} {...form.getInputProps('roleName')} />}
      {!creating && !system && <ReadOnlyField label="Role" value={user.roleName ?? ''} />}
      {creating && !system && (
        <>
          <Select
            label="Primary job function"
            required
            allowDeselect={false}
            data={jobFunctions.map((j) => ({ value: String(j.id), label: j.name }))}
            value={form.values.jobFunctionId === null ? null : String(form.values.jobFunctionId)}
            onChange={(value) => form.setFieldValue('jobFunctionId', value ? Number(value) : null)}
            error={form.errors.jobFunctionId}
          />
          <Checkbox label="Send account creation email" {...form.getInputProps('emailCreatePassword', { type: 'checkbox' })} />
          <SimpleGrid cols={2}>
            <PasswordInput label="Password" required={!form.values.emailCreatePassword} disabled={form.values.emailCreatePassword} autoComplete="new-password" {...form.getInputProps('password')} />
            <PasswordInput label="Confirm password" required={!form.values.emailCreatePassword} disabled={form.values.emailCreatePassword} autoComplete="new-password" {...form.getInputProps('confirmPassword')} />
          </SimpleGrid>
        </>
      )}
      {user && <AccountFacts user={user} />}
      {user && (
        <Stack gap={6} role="group" aria-label="Email notifications">
          <Text size="sm" fw={500}>
            Email notifications
          </Text>
          {NOTIFICATIONS.map(([key, label]) => (
            <Checkbox key={key} label={label} {...form.getInputProps(`userPreferences.${key}`, { type: 'checkbox' })} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

// The read-only facts of an existing user (§2), with the Disable button of two-factor sign-in.
function AccountFacts({ user }: { user: AdminUser }) {
  const queryClient = useQueryClient();
  const disable = async () => {
    try {
      notifySuccess((await disableTwoFactor(user.id)).message);
      await queryClient.invalidateQueries({ queryKey: adminUserKeys.one(user.id) });
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };
  return (
    <SimpleGrid cols={2}>
      <ReadOnlyField label="Phone" value={user.phoneNumber ?? ''} />
      <ReadOnlyField label="Email" value={user.email} />
      <Group gap="xs" align="flex-end">
        <ReadOnlyField label="Two-factor enabled" value={yesNo(user.twoFactorEnabled)} />
        {user.twoFactorEnabled && (
          <Button size="compact-xs" variant="light" color="red" onClick={() => void disable()}>
            Disable
          </Button>
        )}
      </Group>
      <ReadOnlyField label="Token auth enabled" value={yesNo(user.tokenAuthEnabled)} />
      <ReadOnlyField label="Unclaimed tokens" value={yesNo(user.hasUnclaimedSecurityTokens)} />
      <ReadOnlyField label="Locked out" value={yesNo(user.isLockedOut)} />
    </SimpleGrid>
  );
}

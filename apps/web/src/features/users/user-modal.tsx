import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { organizationRoles, type OrganizationRole } from '@clinicrelay/contracts/roles.ts';
import { orgUserForm, orgUserMessages as text, orgUserName, USERNAME_CHECK_DEBOUNCE_MS, type OrgUser, type OrgUserFormValues } from '@clinicrelay/contracts/users.ts';
import { adminUserKeys, fetchJobFunctions } from '../../api/admin-users.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';
import { checkUserName, createOrgUser, orgUserKeys, updateOrgUser } from './api.ts';

const BLANK: OrgUserFormValues = { userName: '', firstName: '', lastName: '', role: '', jobFunctionId: null };

const valuesOf = (user: OrgUser): OrgUserFormValues => ({
  id: user.id,
  userName: user.userName,
  firstName: user.firstName,
  lastName: user.lastName,
  role: user.role,
  jobFunctionId: user.jobFunctionId,
});

interface UserModalProps {
  /** null: closed; { user: null }: adding; { user }: editing that user. */
  editing: { user: OrgUser | null } | null;
  onClose: () => void;
}

/** Add and edit an organization user; a new user receives the account-creation mail. */
export function UserModal({ editing, onClose }: UserModalProps) {
  const queryClient = useQueryClient();
  const jobFunctions = useQuery({ queryKey: adminUserKeys.jobFunctions, queryFn: ({ signal }) => fetchJobFunctions(signal), staleTime: Infinity, enabled: editing !== null });
  const user = editing?.user ?? null;
  const save = async (values: OrgUserFormValues) => {
    const fields = { firstName: values.firstName, lastName: values.lastName, role: values.role as OrganizationRole, jobFunctionId: values.jobFunctionId ?? 0 };
    if (user) await updateOrgUser(user.id, fields);
    else await createOrgUser({ userName: values.userName, ...fields });
    await queryClient.invalidateQueries({ queryKey: orgUserKeys.all });
  };
  return (
    <EntityModal<OrgUserFormValues>
      opened={editing !== null}
      onClose={onClose}
      title={user ? `Edit User ${user.fullName}`.trim() : 'Add User'}
      entity={user ? valuesOf(user) : BLANK}
      schema={orgUserForm}
      successMessage={user ? text.saved : text.created}
      onSubmit={save}
    >
      {(form) => <UserFields form={form} user={user} jobFunctions={jobFunctions.data ?? []} />}
    </EntityModal>
  );
}

function UserFields({ form, user, jobFunctions }: { form: UseFormReturnType<OrgUserFormValues>; user: OrgUser | null; jobFunctions: { id: number; name: string }[] }) {
  return (
    <Stack>
      {user ? <ReadOnlyField label="Username" value={user.userName} /> : <UserNameInput form={form} />}
      <SimpleGrid cols={2}>
        <TextInput label="First name" required maxLength={255} data-autofocus={user ? true : undefined} {...form.getInputProps('firstName')} />
        <TextInput label="Last name" required maxLength={255} {...form.getInputProps('lastName')} />
      </SimpleGrid>
      <Select
        label="Primary job function"
        required
        data={jobFunctions.map((j) => ({ value: String(j.id), label: j.name }))}
        value={form.values.jobFunctionId === null ? null : String(form.values.jobFunctionId)}
        onChange={(value) => form.setFieldValue('jobFunctionId', value ? Number(value) : null)}
        error={form.errors.jobFunctionId}
      />
      <Select label="Role" required data={[...organizationRoles]} {...form.getInputProps('role')} />
    </Stack>
  );
}

// end-user §5 "Username": an email-like name, checked with the server 1 s after the last key.
function UserNameInput({ form }: { form: UseFormReturnType<OrgUserFormValues> }) {
  const [typed] = useDebouncedValue(form.values.userName.trim(), USERNAME_CHECK_DEBOUNCE_MS);
  const valid = typed !== '' && orgUserName.safeParse(typed).success;
  const check = useQuery({
    queryKey: orgUserKeys.userName(typed.toLowerCase()),
    queryFn: ({ signal }) => checkUserName(typed, signal),
    enabled: valid,
    retry: false,
  });
  const liveError = typed === '' ? undefined : !valid ? text.userNameNotValid : check.data?.exists ? text.userNameExists : check.error ? errorDetails(check.error).message : undefined;
  const available = valid && check.data && !check.data.exists;
  return (
    <TextInput
      label="Username"
      required
      type="email"
      maxLength={256}
      data-autofocus
      {...form.getInputProps('userName')}
      error={form.errors.userName ?? liveError}
      description={available ? text.userNameAvailable : 'The user’s email address; they receive a link there to set a password.'}
    />
  );
}

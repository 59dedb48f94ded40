import { Alert, Checkbox, Loader, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationPreferenceLabels, type NotificationPreferences } from '@clinicrelay/contracts/notifications.ts';
import { organizationRoles, type OrganizationRole } from '@clinicrelay/contracts/roles.ts';
import { orgUserForm, orgUserMessages as text, type OrgUser, type OrgUserFormValues } from '@clinicrelay/contracts/users.ts';
import { adminUserKeys, fetchJobFunctions } from '../../api/admin-users.ts';
import { fetchUserNotifications, notificationKeys, useSaveUserNotifications } from '../../api/notifications.ts';
import { useAllOrganizationSources, useIntakeRules } from '../../api/organization-access.ts';
import { useSession } from '../../app/session-context.ts';
import { accessOptions, accessText, ChoiceGroup } from '../../components/access-choices.tsx';
import { EntityModal } from '../../components/entity-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';
import { UserNameInput } from '../../components/user-name-input.tsx';
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
  // Issue 13 §5: the user's notification checkboxes, saved with the user (PUT /api/users/{id}/preferences).
  const notifications = useQuery({ queryKey: notificationKeys.user(user?.id ?? ''), queryFn: ({ signal }) => fetchUserNotifications(user!.id, signal), enabled: user !== null });
  const saveNotifications = useSaveUserNotifications();
  const [notificationChanges, setNotificationChanges] = useState<Partial<NotificationPreferences>>({});
  // Issue 13 §2: a new user's send permissions and intake rules, given with the user.
  const [access, setAccess] = useState<{ documentSourceIds: string[]; intakeRuleIds: string[] }>({ documentSourceIds: [], intakeRuleIds: [] });
  const close = () => {
    setNotificationChanges({});
    setAccess({ documentSourceIds: [], intakeRuleIds: [] });
    onClose();
  };
  const save = async (values: OrgUserFormValues) => {
    const fields = { firstName: values.firstName, lastName: values.lastName, role: values.role as OrganizationRole, jobFunctionId: values.jobFunctionId ?? 0 };
    if (user) await updateOrgUser(user.id, fields);
    else await createOrgUser({ userName: values.userName, ...fields, ...access });
    if (user && notifications.data && Object.keys(notificationChanges).length > 0) {
      await saveNotifications.mutateAsync({ userId: user.id, preferences: { ...notifications.data, ...notificationChanges } });
    }
    await queryClient.invalidateQueries({ queryKey: orgUserKeys.all });
  };
  return (
    <EntityModal<OrgUserFormValues>
      opened={editing !== null}
      onClose={close}
      title={user ? `Edit User ${user.fullName}`.trim() : 'Add User'}
      entity={user ? valuesOf(user) : BLANK}
      schema={orgUserForm}
      successMessage={user ? text.saved : text.created}
      onSubmit={save}
    >
      {(form) => (
        <>
          <UserFields form={form} user={user} jobFunctions={jobFunctions.data ?? []} />
          {!user && <AccessFields value={access} onChange={setAccess} />}
          {user && (
            <NotificationFields
              values={notifications.data ? { ...notifications.data, ...notificationChanges } : undefined}
              error={notifications.error}
              onChange={(key, checked) => setNotificationChanges((changes) => ({ ...changes, [key]: checked }))}
            />
          )}
        </>
      )}
    </EntityModal>
  );
}

function UserFields({ form, user, jobFunctions }: { form: UseFormReturnType<OrgUserFormValues>; user: OrgUser | null; jobFunctions: { id: number; name: string }[] }) {
  return (
    <Stack>
      {user ? (
        <ReadOnlyField label="Username" value={user.userName} />
      ) : (
        <UserNameInput
          label="Username"
          data-autofocus
          check={checkUserName}
          queryKey={orgUserKeys.userName}
          hint="The user’s email address; they receive a link there to set a password."
          {...form.getInputProps('userName')}
          value={form.values.userName}
        />
      )}
      <SimpleGrid cols={2}>
        <TextInput label="First name" required maxLength={255} data-autofocus={user ? true : undefined} {...form.getInputProps('firstName')} />
        <TextInput label="Last name" required maxLength={255} {...form.getInputProps('lastName')} />
      </SimpleGrid>
      <Select
        label="Primary job function"
        required
        allowDeselect={false}
        data={jobFunctions.map((j) => ({ value: String(j.id), label: j.name }))}
        value={form.values.jobFunctionId === null ? null : String(form.values.jobFunctionId)}
        onChange={(value) => form.setFieldValue('jobFunctionId', value ? Number(value) : null)}
        error={form.errors.jobFunctionId}
      />
      <Select label="Role" required allowDeselect={false} data={[...organizationRoles]} {...form.getInputProps('role')} />
    </Stack>
  );
}

// What the new user may send from and which rules bring them messages; the same choices as their permissions later.
function AccessFields({ value, onChange }: { value: { documentSourceIds: string[]; intakeRuleIds: string[] }; onChange: (next: { documentSourceIds: string[]; intakeRuleIds: string[] }) => void }) {
  const { profile } = useSession();
  const sources = useAllOrganizationSources(profile.organizationId ?? '');
  const rules = useIntakeRules();
  if (!sources.data || !rules.data) {
    const failure = sources.error ?? rules.error;
    return failure ? <Alert color="red">{errorDetails(failure).message}</Alert> : <Loader size="sm" aria-label="Loading permissions" />;
  }
  const { sourceOptions, ruleOptions } = accessOptions(sources.data.items, rules.data);
  return (
    <>
      <ChoiceGroup title={accessText.sendPermissions} hint={accessText.sendPermissionsHint} empty={accessText.noAddresses} options={sourceOptions} value={value.documentSourceIds} onChange={(documentSourceIds) => onChange({ ...value, documentSourceIds })} />
      <ChoiceGroup title={accessText.intakeRules} hint={accessText.intakeRulesHint} empty={accessText.noRules} options={ruleOptions} value={value.intakeRuleIds} onChange={(intakeRuleIds) => onChange({ ...value, intakeRuleIds })} />
    </>
  );
}

// back-office-a §3's notification checkboxes (new messages, unprocessed messages, system notifications, unassigned
// messages, failed message digest).
function NotificationFields({ values, error, onChange }: { values: NotificationPreferences | undefined; error: unknown; onChange: (key: keyof NotificationPreferences, checked: boolean) => void }) {
  return (
    <Stack gap="xs" role="group" aria-label="Notifications">
      <Text fw={500} size="sm">
        Notifications
      </Text>
      {error ? (
        <Alert color="red">{errorDetails(error).message}</Alert>
      ) : !values ? (
        <Loader size="sm" aria-label="Loading notifications" />
      ) : (
        notificationPreferenceLabels.map(([key, label]) => <Checkbox key={key} label={label} checked={values[key]} onChange={(e) => onChange(key, e.currentTarget.checked)} />)
      )}
    </Stack>
  );
}

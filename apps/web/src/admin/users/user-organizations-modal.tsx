import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Loader, Modal, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminUserMessages as text, userOrganizationAssign } from '@clinicrelay/contracts/admin-users.ts';
import { organizationRoles } from '@clinicrelay/contracts/roles.ts';
import { addUserOrganization, adminUserKeys, fetchJobFunctions, fetchUserOrganizations, removeUserOrganization } from '../../api/admin-users.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { OrganizationTypeahead } from '../../components/organization-typeahead.tsx';

// back-office-a §2 "User organizations modal": add an assignment (organization, role and job function, all
// required, §5) and the user's assignments with a delete per row.

export function UserOrganizationsModal({ user, onClose }: { user: { id: string; userName: string } | null; onClose: () => void }) {
  return (
    <Modal opened={user !== null} onClose={onClose} size="lg" title={user ? `Organizations of ${user.userName}` : 'Organizations'}>
      {user && <Assignments key={user.id} userId={user.id} />}
    </Modal>
  );
}

type Errors = Partial<Record<'organizationId' | 'role' | 'jobFunctionId', string>>;

function Assignments({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const assignments = useQuery({ queryKey: adminUserKeys.organizations(userId), queryFn: ({ signal }) => fetchUserOrganizations(userId, signal) });
  const jobFunctions = useQuery({ queryKey: adminUserKeys.jobFunctions, queryFn: ({ signal }) => fetchJobFunctions(signal), staleTime: Infinity });
  const [organizationId, setOrganizationId] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const [jobFunctionId, setJobFunctionId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminUserKeys.all });

  const add = async () => {
    const parsed = userOrganizationAssign.safeParse({ userId, organizationId, role: role ?? undefined, jobFunctionId: jobFunctionId ? Number(jobFunctionId) : undefined });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await addUserOrganization(parsed.data);
      notifySuccess(text.organizationSaved);
      setOrganizationId('');
      setRole(null);
      setJobFunctionId(null);
      await refresh();
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      setErrors({ organizationId: modelState.organizationId?.join(' ') ?? message });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: string) => {
    try {
      await removeUserOrganization(id, userId);
      notifySuccess(text.organizationRemoved);
      await refresh();
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };

  if (assignments.error) return <Alert color="red">{errorDetails(assignments.error).message}</Alert>;
  if (!assignments.data) return <Loader aria-label="Loading the organizations" />;
  return (
    <Stack>
      <OrganizationTypeahead value={organizationId} onChange={setOrganizationId} error={errors.organizationId} exclude={assignments.data.map((a) => a.id)} />
      <Group grow align="flex-start">
        <Select label="Role" required data={[...organizationRoles]} value={role} onChange={setRole} error={errors.role} />
        <Select
          label="Job function"
          required
          data={(jobFunctions.data ?? []).map((j) => ({ value: String(j.id), label: j.name }))}
          value={jobFunctionId}
          onChange={setJobFunctionId}
          error={errors.jobFunctionId}
        />
      </Group>
      <Group justify="flex-end">
        <Button onClick={() => void add()} loading={busy}>
          Add
        </Button>
      </Group>
      {assignments.data.length === 0 ? (
        <Text c="dimmed">This user belongs to no organization.</Text>
      ) : (
        <Table aria-label="Organizations of the user">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Organization</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Primary job function</Table.Th>
              <Table.Th w={60} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {assignments.data.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>{a.name}</Table.Td>
                <Table.Td>{a.role}</Table.Td>
                <Table.Td>{a.primaryJobFunction ?? '—'}</Table.Td>
                <Table.Td>
                  <Tooltip label="Remove" withArrow>
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove ${a.name}`} onClick={() => void remove(a.id)}>
                      ×
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

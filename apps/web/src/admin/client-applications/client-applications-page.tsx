import { useNavigate } from 'react-router';
import { clientApplicationMessages } from '@clinicrelay/contracts/client-applications.ts';
import type { ClientApplication } from '@clinicrelay/contracts/client-applications.ts';
import { clientApplicationKeys, deleteClientApplication, fetchClientApplications } from '../../api/client-applications.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { AdminListArea } from '../admin-list-area.tsx';

const url = (key: 'logoUrl' | 'redirectURI' | 'applicationUrl') => (row: ClientApplication) => <TruncatedText text={row[key]} maw={220} />;

const columns: ListColumn<ClientApplication>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'logoUrl', header: 'Logo URL', sortable: true, render: url('logoUrl'), visibleFrom: 'lg' },
  { key: 'redirectURI', header: 'Redirect URI', sortable: true, render: url('redirectURI') },
  { key: 'applicationUrl', header: 'Application URL', sortable: true, render: url('applicationUrl'), visibleFrom: 'md' },
  { key: 'clientId', header: 'Client ID', sortable: true, width: 320 },
];

/** /admin/clientapplications: the client applications of the product's API (back-office-b, issue 29 §1). */
export function ClientApplicationsPage() {
  const navigate = useNavigate();
  return (
    <AdminListArea<ClientApplication, object>
      title="Client applications"
      entityName="client application"
      queryKey={clientApplicationKeys}
      columns={columns}
      fetchPage={fetchClientApplications}
      onAdd={() => void navigate('/admin/clientapplications/add')}
      onEdit={(row) => void navigate(`/admin/clientapplications/edit/${row.id}`)}
      remove={(row) => deleteClientApplication(row.id)}
      listDefaults={{ sortCol: 'name' }}
      rowName={(row) => row.name}
      deletePrompt={(name) => `Delete ${name}? Its client ID and secret stop working at once. This cannot be undone.`}
      messages={{ saved: clientApplicationMessages.saved, deleted: clientApplicationMessages.deleted }}
    />
  );
}

import { useQuery } from '@tanstack/react-query';
import { organizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import { apiFetch } from './client.ts';

// Shared by Release (fax option defaults, delivery summary) and Intake (interoperability settings).
export const organizationSettingsKeys = {
  all: ['organizationSettings'] as const,
};

/** GET /api/organizationsettings: the signed-in user's organization's settings. */
export const useOrganizationSettings = () =>
  useQuery({
    queryKey: organizationSettingsKeys.all,
    queryFn: ({ signal }) => apiFetch('/api/organizationsettings', { schema: organizationSettings, signal }),
    staleTime: 5 * 60_000,
  });

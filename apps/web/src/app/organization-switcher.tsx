import { useEffect, useRef } from 'react';
import { Select } from '@mantine/core';
import { useLocation, useNavigate, type Location } from 'react-router';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { ApiError } from '../api/client.ts';
import { useChangeOrganization } from '../api/session.ts';
import { notifyError } from '../components/notify.ts';
import { LOGIN_PATH } from './paths.ts';
import { storeRedirect, urlOf } from './redirect.ts';
import { useSession } from './session-context.ts';

/** The history state of a navigation made to switch organization. */
interface SwitchState {
  switchOrganization?: string;
}

/**
 * Where the switcher goes before switching: a list stays where it is (and reloads for the new organization);
 * a page of one message belongs to the old organization, so it gives way to the new one's Intake.
 */
export function switchTarget(pathname: string): string {
  return /^\/(intake|release)\/./i.test(pathname) ? '/intake' : pathname;
}

/** The organization a switch is under way to, if any. */
function pendingSwitch(location: Location, profile: Profile): string | null {
  const requested = (location.state as SwitchState | null)?.switchOrganization;
  return requested && requested !== profile.organizationId ? requested : null;
}

/** The user's organizations (end-user §2 "Organization switcher"); shown for users with several. */
export function OrganizationSwitcher({ width = 240 }: { width?: number | string }) {
  const { profile } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const pending = pendingSwitch(location, profile);

  return (
    <Select
      aria-label="Organization"
      data={profile.organizations.map((organization) => ({ value: organization.id, label: organization.name }))}
      value={pending ?? profile.organizationId}
      allowDeselect={false}
      disabled={pending !== null}
      w={width}
      onChange={(orgId) => {
        if (!orgId || orgId === profile.organizationId) return;
        // Through the router first: a page with unsaved work (compose) asks Save or Discard, and its Cancel
        // keeps everything as it was. The switch itself happens once the navigation did (useOrganizationSwitch).
        const target = switchTarget(location.pathname);
        const state: SwitchState = { switchOrganization: orgId };
        void navigate(target, { state, replace: target === location.pathname });
      }}
    />
  );
}

/**
 * Switches organization once the switcher's navigation has happened (POST /api/account/change, then the
 * profile is replaced and everything else refetched). True while the switch runs, so the layout shows a
 * loader instead of the old organization's page.
 */
export function useOrganizationSwitch(): boolean {
  const { profile } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const changeOrganization = useChangeOrganization();
  const handledKey = useRef<string | null>(null);
  const pending = pendingSwitch(location, profile);

  useEffect(() => {
    const requested = (location.state as SwitchState | null)?.switchOrganization;
    // Once per navigation: StrictMode runs effects twice.
    if (!requested || handledKey.current === location.key) return;
    handledKey.current = location.key;
    const here = urlOf(location);
    // The request is used up: going Back to this entry or reloading it does not switch again.
    const settle = () => void navigate(here, { replace: true, state: null });
    if (requested === profile.organizationId) return settle();
    changeOrganization.mutate(requested, {
      onSuccess: (next) => {
        // No profile for the new organization: sign in again, then come back here.
        if (next === null) {
          storeRedirect(here);
          void navigate(LOGIN_PATH, { replace: true });
          return;
        }
        settle();
      },
      onError: (error) => {
        const authError = error instanceof ApiError && (error.status === 401 || error.status === 403);
        if (!authError) notifyError(error instanceof ApiError ? error.message : messages.serverError);
        settle();
      },
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per navigation
  }, [location.key]);

  return pending !== null;
}

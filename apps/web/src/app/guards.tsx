import { useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { Alert, Button, Center, Stack } from '@mantine/core';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { defaultRouteFor } from '@clinicrelay/contracts/roles.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { ApiError } from '../api/client.ts';
import { useFeatures, usePreferences, useProfile } from '../api/session.ts';
import { hasSession } from '../api/tokens.ts';
import { hasAllFeatures, hasAnyRole } from './access.ts';
import { CenteredLoader } from './centered-loader.tsx';
import { FEATURE_FALLBACK_PATH, LOGIN_PATH, UNAUTHORIZED_PATH } from './paths.ts';
import { consumeRedirect, storeRedirect, urlOf } from './redirect.ts';
import { SessionContext, useSession, type Session } from './session-context.ts';

interface GuardProps {
  /** Rendered when allowed; defaults to the child routes. */
  children?: ReactNode;
}

/**
 * The signed-in "abstract state": without a session, remember where the user was and go to sign-in;
 * with one, load profile, features and preferences before rendering anything below.
 */
export function RequireAuth({ children }: GuardProps) {
  if (!hasSession()) return <RedirectToLogin />;
  return <SessionLoader>{children ?? <Outlet />}</SessionLoader>;
}

function RedirectToLogin() {
  const location = useLocation();
  // Layout effect: runs before Navigate's effect moves the location.
  useLayoutEffect(() => {
    storeRedirect(urlOf(location));
  }, [location]);
  return <Navigate to={LOGIN_PATH} replace />;
}

function SessionLoader({ children }: { children: ReactNode }) {
  const profile = useProfile();
  const features = useFeatures();
  const preferences = usePreferences();

  const enabled = features.data?.enabled;
  const featureSet = useMemo(() => new Set(enabled ?? []), [enabled]);
  const session = useMemo<Session | null>(
    () =>
      profile.data && preferences.data && enabled
        ? { profile: profile.data, features: featureSet, preferences: preferences.data }
        : null,
    [profile.data, preferences.data, enabled, featureSet],
  );

  const failed = [profile, features, preferences].find((query) => query.isError && !query.data);
  if (failed) {
    const error = failed.error;
    // 401/403 are already being handled globally (sign-in or /unauthorized); just wait for the navigation.
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return <CenteredLoader />;
    return (
      <Center mih="60vh">
        <Stack align="center" maw={480}>
          <Alert color="red" title="Unable to load your session" w="100%">
            {error instanceof ApiError ? error.message : messages.serverError}
          </Alert>
          <Button
            variant="light"
            onClick={() => {
              void profile.refetch();
              void features.refetch();
              void preferences.refetch();
            }}
          >
            Try again
          </Button>
        </Stack>
      </Center>
    );
  }
  if (session === null) return <CenteredLoader label="Loading your session" />;
  return <SessionContext value={session}>{children}</SessionContext>;
}

/** Routes that need a role send everyone else to /unauthorized (end-user §2). */
export function RequireRoles({ roles, children }: GuardProps & { roles: readonly string[] }) {
  const { profile } = useSession();
  if (!hasAnyRole(profile.roles, roles)) return <Navigate to={UNAUTHORIZED_PATH} replace />;
  return <>{children ?? <Outlet />}</>;
}

/** Routes that need feature toggles send users to the account dashboard unless all are enabled. */
export function RequireFeatures({ features, children }: GuardProps & { features: readonly string[] }) {
  const session = useSession();
  if (!hasAllFeatures(session.features, features)) return <Navigate to={FEATURE_FALLBACK_PATH} replace />;
  return <>{children ?? <Outlet />}</>;
}

/** /release/new and the like: only an activated organization may use them. */
export function RequireActivatedOrganization({ redirectTo, children }: GuardProps & { redirectTo: string }) {
  const { profile } = useSession();
  if (!profile.orgIsActivated) return <Navigate to={redirectTo} replace />;
  return <>{children ?? <Outlet />}</>;
}

/** "/" and "/admin": the role's default route. */
export function RoleHome() {
  const { profile } = useSession();
  return <Navigate to={defaultRouteFor(profile.roles)} replace />;
}

/** Unknown URLs: the stored redirect URL (used once), else the role default. */
export function UnknownRoute() {
  const { profile } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const handledKey = useRef<string | null>(null);
  useEffect(() => {
    // Once per location: a second run (StrictMode) would find the redirect already consumed.
    if (handledKey.current === location.key) return;
    handledKey.current = location.key;
    const stored = consumeRedirect();
    // The stored URL may be this very unknown URL; going there again would stay on this page.
    const target = stored !== null && stored.toLowerCase() !== urlOf(location).toLowerCase() ? stored : null;
    void navigate(target ?? defaultRouteFor(profile.roles), { replace: true });
  }, [navigate, location, profile.roles]);
  return <CenteredLoader />;
}

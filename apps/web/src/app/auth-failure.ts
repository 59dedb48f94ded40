import type { QueryClient } from '@tanstack/react-query';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { setAuthFailureHandler } from '../api/client.ts';
import { notifyError } from '../components/notify.ts';
import { LOGIN_PATH, UNAUTHORIZED_PATH } from './paths.ts';
import { storeRedirect, urlOf } from './redirect.ts';

/** The part of a react-router data router this handler needs. */
interface RouterLike {
  state: { location: { pathname: string; search: string; hash: string } };
  navigate: (to: string, options?: { replace?: boolean }) => Promise<void>;
}

// Several calls failing together would otherwise stack identical toasts.
const TOAST_DEDUPE_MS = 2_000;

/**
 * end-user §8: 'Token revoked or expired.' signs the user off with the session-expired notice (path kept
 * for after sign-in); any other 401/403 toasts and goes to /unauthorized. Returns the uninstall function.
 */
export function installAuthFailureHandler(router: RouterLike, queryClient: QueryClient): () => void {
  let lastToastAt = -Infinity;
  setAuthFailureHandler((failure) => {
    const now = Date.now();
    const toast = now - lastToastAt > TOAST_DEDUPE_MS;
    lastToastAt = now;
    if (failure === 'signedOff') {
      // The session ended (automatic logoff after inactivity or its time limit, or revoked): say so on the way out.
      if (toast && router.state.location.pathname !== LOGIN_PATH) notifyError(messages.sessionExpired);
      storeRedirect(urlOf(router.state.location));
      // Cancel only: clearing here would make still-mounted queries refetch into more 401s;
      // the sign-in page clears the cache once the signed-in pages are gone.
      void queryClient.cancelQueries();
      void router.navigate(LOGIN_PATH, { replace: true });
      return;
    }
    if (toast) notifyError(messages.notAuthorized);
    if (router.state.location.pathname !== UNAUTHORIZED_PATH) void router.navigate(UNAUTHORIZED_PATH);
  });
  return () => setAuthFailureHandler(null);
}

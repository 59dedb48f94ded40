import { createContext, useContext } from 'react';
import type { Profile, UserPreferences } from '@clinicrelay/contracts/session.ts';

/** What the "abstract state" (end-user §2) has loaded before any signed-in page renders. */
export interface Session {
  profile: Profile;
  features: ReadonlySet<string>;
  preferences: UserPreferences;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession must be used below RequireAuth.');
  return session;
}
